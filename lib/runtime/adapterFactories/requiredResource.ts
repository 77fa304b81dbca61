import { ConfigError } from '../../config';

/** A resource the port cannot work without. @throws ConfigError naming the variable */
export function requiredResource<T>(value: T | undefined, variable: string): T {
  if (value === undefined) throw new ConfigError([`${variable} is required`]);
  return value;
}
