/**
 * EventBridge Scheduler expressions Scheduler accepts and refuses (its documented grammar,
 * https://docs.aws.amazon.com/scheduler/latest/UserGuide/schedule-types.html), shared by the
 * validator's tests, the stack configuration's and the local scheduler's: all three must agree.
 */

/** Accepted: every form and wildcard of the grammar. */
export const VALID_SCHEDULE_EXPRESSIONS: readonly string[] = [
  'rate(1 minute)',
  'rate(5 minutes)',
  'rate(1 hour)',
  'rate(12 hours)',
  'rate(1 day)',
  'rate(7 days)',
  'cron(0 2 * * ? *)',
  'cron(15 10 ? * 6L 2026-2030)',
  'cron(0/15 9-17 ? * MON-FRI *)',
  'cron(*/5 * * * ? *)',
  'cron(5,35 8-9 * * ? *)',
  'cron(0 8 1 * ? *)',
  'cron(0 0 1 FEB ? 2027-2028)',
  'cron(0 0 1 jan,jul ? *)',
  'cron(0 0 L * ? *)',
  'cron(0 0 LW * ? *)',
  'cron(0 0 15W * ? *)',
  'cron(0 9 ? * 6#3 *)',
  'cron(0 9 ? * MON#1 *)',
  'cron(0 9 ? * MONL *)',
  'cron(0 9 ? * L *)',
  'cron(0 12 ? * 1 *)',
  'cron(0 12 ? * 1-7 *)',
  'cron(0 12 ? * SUN,SAT *)',
  'cron(0 0 1-15/2 * ? *)',
  'cron(0 0 1 1/3 ? *)',
  'cron(30 23 31 12 ? 2199)',
  'cron(0 0 1 1 ? 1970)',
  'cron(0 0/6 * * ? */2)',
];

/** Refused, each with what the reason names. */
export const INVALID_SCHEDULE_EXPRESSIONS: readonly { expression: string; reason: RegExp }[] = [
  // Both day fields `*`, or both `?`: exactly one of them must be `?`.
  { expression: 'cron(0 2 * * * *)', reason: /exactly one of day-of-month and day-of-week must be \?/ },
  { expression: 'cron(0 2 ? * ? *)', reason: /exactly one of day-of-month and day-of-week must be \?/ },
  { expression: 'cron(0 2 1 * MON *)', reason: /exactly one of day-of-month and day-of-week must be \?/ },
  { expression: 'cron(0 2 * * ?)', reason: /expected 6 fields .*got 5/ },
  { expression: 'cron(0 2 * * ? * *)', reason: /expected 6 fields .*got 7/ },
  { expression: 'cron()', reason: /expected 6 fields/ },
  { expression: 'cron(60 2 * * ? *)', reason: /minutes: "60" is not from 0 to 59/ },
  { expression: 'cron(0 24 * * ? *)', reason: /hours: "24" is not from 0 to 23/ },
  { expression: 'cron(0 2 32 * ? *)', reason: /day-of-month: "32" is not from 1 to 31/ },
  { expression: 'cron(0 2 0 * ? *)', reason: /day-of-month: "0" is not from 1 to 31/ },
  { expression: 'cron(0 2 1 13 ? *)', reason: /month: "13" is not from 1 to 12/ },
  { expression: 'cron(0 2 1 FOO ? *)', reason: /month: "FOO" is not a month/ },
  { expression: 'cron(0 2 ? * FUNDAY *)', reason: /day-of-week: "FUNDAY" is not a day/ },
  { expression: 'cron(0 2 ? * 8 *)', reason: /day-of-week: "8" is not from 1 to 7/ },
  { expression: 'cron(0 2 ? * 0 *)', reason: /day-of-week: "0" is not from 1 to 7/ },
  {
    expression: 'cron(0 2 ? * MON#6 *)',
    reason: /day-of-week: "MON#6": the occurrence after # must be from 1 to 5/,
  },
  { expression: 'cron(0 2 ? * 3#1,6#3 *)', reason: /day-of-week: "3#1" must stand alone/ },
  { expression: 'cron(0 2 ? * MON/2 *)', reason: /day-of-week: "MON\/2": \/ is not allowed in day-of-week/ },
  { expression: 'cron(0 2 L,15 * ? *)', reason: /day-of-month: "L" must stand alone/ },
  { expression: 'cron(0 2 32W * ? *)', reason: /day-of-month: "32W" is not a day of the month/ },
  { expression: 'cron(0 20-10 * * ? *)', reason: /hours: "20-10" runs backwards/ },
  { expression: 'cron(0/0 2 * * ? *)', reason: /minutes: "0\/0": the step must be from 1 to 60/ },
  { expression: 'cron(? 2 * * ? *)', reason: /minutes: \? is only allowed in day-of-month or day-of-week/ },
  { expression: 'cron(0 2 * * ? 2200)', reason: /year: "2200" is not from 1970 to 2199/ },
  { expression: 'cron(0 2 * * ? 1969-1970)', reason: /year: "1969" is not from 1970 to 2199/ },
  { expression: 'cron(0 2 * * ? 2026,*)', reason: /year: "\*" must stand alone/ },
  { expression: 'cron(0 2 * * ? x)', reason: /year: "X" is not a year/ },
  { expression: 'cron(0 2 1,,2 * ? *)', reason: /day-of-month: "" is not a day of the month/ },
  { expression: 'rate(0 minutes)', reason: /the rate must be at least 1/ },
  { expression: 'rate(1 minutes)', reason: /singular unit for 1 and a plural one otherwise/ },
  { expression: 'rate(5 minute)', reason: /singular unit for 1 and a plural one otherwise/ },
  { expression: 'rate(5 seconds)', reason: /the unit must be minute\(s\), hour\(s\) or day\(s\)/ },
  { expression: 'rate(-5 minutes)', reason: /expected rate\(<n> <unit>\) or cron\(<6 fields>\)/ },
  { expression: 'rate(5minutes)', reason: /expected rate\(<n> <unit>\) or cron\(<6 fields>\)/ },
  { expression: 'every 5 minutes', reason: /expected rate\(<n> <unit>\) or cron\(<6 fields>\)/ },
  { expression: 'at(2026-01-01T00:00:00)', reason: /one-time at\(\) schedules are not supported/ },
];

/** Time zones as typed → the name the stack writes; `undefined`: refused. */
export const SCHEDULE_TIME_ZONES: readonly { typed: string; canonical: string | undefined }[] = [
  { typed: 'Europe/Paris', canonical: 'Europe/Paris' },
  { typed: 'europe/paris', canonical: 'Europe/Paris' },
  { typed: 'AMERICA/NEW_YORK', canonical: 'America/New_York' },
  { typed: 'utc', canonical: 'UTC' },
  { typed: 'Mars/Olympus_Mons', canonical: undefined },
  { typed: '+01:00', canonical: undefined },
];
