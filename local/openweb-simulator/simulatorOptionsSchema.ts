import { z } from 'zod';
import { EXPORT_RATE_LIMIT_SCOPES } from './ExportRateLimit';
import { OpenWebSimulatorError } from './errors';
import { MIN_CHANGE_DELAY_SECONDS } from './UpstreamComments';

const NON_NEGATIVE = 'must be a non-negative number';
const SHARE = 'must be a share from 0 to 1';
const SCOPE = `must be one of ${EXPORT_RATE_LIMIT_SCOPES.join(', ')}`;

const nonNegative = z
  .number({ error: NON_NEGATIVE })
  .check(z.refine((value) => Number.isFinite(value) && value >= 0, { message: NON_NEGATIVE }));
// Counted per sliding second (requests) or whole rows (records): a fraction would silently round.
const nonNegativeInteger = nonNegative.check(
  z.refine((value) => !Number.isFinite(value) || value < 0 || Number.isInteger(value), {
    message: 'must be an integer',
  }),
);

const share = z
  .number({ error: SHARE })
  .check(z.refine((value) => value >= 0 && value <= 1, { message: SHARE }));
const positiveInteger = nonNegativeInteger.check(
  z.refine((value) => value >= 1, { message: 'must be a positive integer' }),
);

/** The simulator's numeric and enumerated options; the rest are typed by TypeScript alone. */
const simulatorOptionsSchema = z.looseObject({
  tokenTtlSeconds: nonNegative.optional(),
  authRequestsPerSecond: nonNegative.optional(),
  exportRequestsPerSecond: nonNegativeInteger.optional(),
  timeScale: nonNegative.optional(),
  commentsPerHour: nonNegativeInteger.optional(),
  usersPerSpot: positiveInteger.optional(),
  statusChangeShare: share.optional(),
  editShare: share.optional(),
  deleteShare: share.optional(),
  maxChangeDelaySeconds: nonNegative
    .check(
      z.refine((value) => value >= MIN_CHANGE_DELAY_SECONDS, {
        message: `must be at least ${MIN_CHANGE_DELAY_SECONDS} (the soonest change)`,
      }),
    )
    .optional(),
  downloadLinkChars: nonNegative.optional(),
  exportRateLimitScope: z
    .string({ error: SCOPE })
    .check(
      z.refine((value) => (EXPORT_RATE_LIMIT_SCOPES as readonly string[]).includes(value), {
        message: SCOPE,
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
  const rule = issue?.message;
  throw new OpenWebSimulatorError(`Option ${name} ${rule}, got ${String(value)}`);
}
