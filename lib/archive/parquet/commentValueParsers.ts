const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const DECIMAL_INTEGER = /^-?\d{1,19}$/;

/**
 * A base-10 integer within INT64 (an optional `-`, digits only), or undefined: a sign `+`,
 * spaces, a decimal point or an exponent are not certain enough to read as a number.
 */
export function parseInt64(value: string): bigint | undefined {
  if (!DECIMAL_INTEGER.test(value)) return undefined;
  const parsed = BigInt(value);
  return parsed < INT64_MIN || parsed > INT64_MAX ? undefined : parsed;
}

/**
 * RFC 3339 with a zone: `2026-01-31T12:00:00Z`, `…T12:00:00.123+02:00`, `T` or a space between
 * date and time. Fractions finer than milliseconds must be zero there, so the instant is exact.
 */
const RFC3339_INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;
const MS_PER_MINUTE = 60_000;
const MAX_OFFSET_MINUTES = 24 * 60 - 1;

/**
 * Milliseconds since the epoch of an RFC 3339 instant with its zone, or undefined for anything
 * else (a local time without a zone, a date that does not exist, a leap second, digits past the
 * millisecond): only a value that means one instant for certain is typed.
 */
export function parseUtcTimestampMs(value: string): number | undefined {
  const match = RFC3339_INSTANT.exec(value);
  if (match === null) return undefined;
  const [, year, month, day, hour, minute, second, fraction = '', sign, offsetHours, offsetMinutes] =
    match as unknown as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string?,
      string?,
      string?,
      string?,
    ];
  if (/[1-9]/.test(fraction.slice(3))) return undefined;
  const milliseconds = Number(fraction.slice(0, 3).padEnd(3, '0'));
  const fields = [Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second)];
  const [y, mo, d, h, mi, s] = fields as [number, number, number, number, number, number];
  const date = new Date(0);
  date.setUTCFullYear(y, mo, d);
  date.setUTCHours(h, mi, s, milliseconds);
  // Date rolls over out-of-range fields (February 30 → March 2); a real instant reads back the same.
  if (
    date.getUTCFullYear() !== y ||
    date.getUTCMonth() !== mo ||
    date.getUTCDate() !== d ||
    date.getUTCHours() !== h ||
    date.getUTCMinutes() !== mi ||
    date.getUTCSeconds() !== s
  ) {
    return undefined;
  }
  if (sign === undefined) return date.getTime();
  const offset = Number(offsetHours) * 60 + Number(offsetMinutes);
  if (Number(offsetMinutes) > 59 || offset > MAX_OFFSET_MINUTES) return undefined;
  return date.getTime() - (sign === '-' ? -offset : offset) * MS_PER_MINUTE;
}
