import { z } from 'zod';
import { EXPORT_RATE_LIMIT_SCOPES } from './ExportRateLimit';
import { OpenWebSimulatorError } from './errors';

const nonNegative = z
  .number()
  .check(
    z.refine((value) => Number.isFinite(value) && value >= 0, { message: 'must be a non-negative number' }),
  );
// Counted per sliding second (requests) or whole rows (records): a fraction would silently round.
const nonNegativeInteger = nonNegative.check(
  z.refine((value) => !Number.isFinite(value) || value < 0 || Number.isInteger(value), {
    message: 'must be an integer',
  }),
);

/** The simulator's numeric and enumerated options; the rest are typed by TypeScript alone. */
const simulatorOptionsSchema = z.looseObject({
  tokenTtlSeconds: nonNegative.optional(),
  authRequestsPerSecond: nonNegative.optional(),
  exportRequestsPerSecond: nonNegativeInteger.optional(),
  timeScale: nonNegative.optional(),
  recordsPerExport: nonNegativeInteger.optional(),
  downloadLinkChars: nonNegative.optional(),
  exportRateLimitScope: z
    .string()
    .check(
      z.refine((value) => (EXPORT_RATE_LIMIT_SCOPES as readonly string[]).includes(value), {
        message: `must be one of ${EXPORT_RATE_LIMIT_SCOPES.join(', ')}`,
      }),
    )
    .optional(),
});

/** @throws OpenWebSimulatorError naming the first bad option, its rule and the value given. */
export function checkSimulatorOptions(options: object): void {
  const parsed = simulatorOptionsSchema.safeParse(options);
  if (parsed.success) return;
  const issue = parsed.error.issues[0];
  const name = String(issue?.path[0]);
  const value = (options as Record<string, unknown>)[name];
  const rule = issue?.code === 'invalid_type' ? 'must be a non-negative number' : issue?.message;
  throw new OpenWebSimulatorError(`Option ${name} ${rule}, got ${String(value)}`);
}
