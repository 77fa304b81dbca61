import { MAX_EXPORT_RANGE_HOURS } from '../lib/exports/requests/exportRequestLimits';
import type { Setting, SettingKind } from '../lib/settings/Setting';
import { SETTING_DESCRIPTIONS, type SettingDescription } from '../lib/settings/settingDescriptions';
import { SETTINGS, type SettingName } from '../lib/settings/settingsTable';
import { settingText } from '../lib/settings/settingValue';
import { MAX_FLEXIBLE_WINDOW_MINUTES, STACK_CONFIG_CONTEXT_KEY } from './stackConfig';

/** Where the page is written, relative to the project root. */
export const CONFIGURATION_PAGE_FILE = 'docs/configuration.md';
/** The command that writes it. */
export const CONFIGURATION_PAGE_COMMAND = 'npm run docs:config';

type DescribedSetting = Setting & SettingDescription;

const ALL_SETTINGS: readonly DescribedSetting[] = (Object.keys(SETTINGS) as SettingName[]).map((name) => ({
  ...(SETTINGS[name] as Setting),
  ...SETTING_DESCRIPTIONS[name],
}));
const SECONDS_PER_MINUTE = 60;
const SECONDS_PER_HOUR = 3600;
const SECONDS_PER_DAY = 86_400;

/** The keys of the stack configuration that hold structure rather than one value. */
const STRUCTURE_ROWS: readonly [key: string, defaultText: string, meaning: string][] = [
  [
    'spots[].spotId',
    '—',
    'A spot (`sp_…`) to export on a schedule; its credentials are the secret `<secretNamePrefix><spotId>`.',
  ],
  [
    'spots[].schedules[]',
    '`[]`',
    "The spot's export schedules; without any, its exports are started through the API only.",
  ],
  [
    'spots[].schedules[].expression',
    '—',
    'When each run starts: an EventBridge Scheduler `rate(<n> <unit>)` (minute, hour or day; singular for 1) or `cron(minutes hours day-of-month month day-of-week year)` expression (`, - * /` in every field but day-of-week; `?` in exactly one of the two day fields; `L`, `LW`, `<n>W` in day-of-month; `L`, `<day>L`, `<day>#<n>` in day-of-week; JAN–DEC, SUN–SAT with 1 = SUN; years 1970–2199). One-time `at()` schedules are refused.',
  ],
  [
    'spots[].schedules[].window',
    '—',
    `Each run exports the window that ends at its scheduled time: an ISO-8601 duration in weeks, days, hours, minutes or seconds (\`P1D\`, \`PT12H\`), at most ${MAX_EXPORT_RANGE_HOURS} hours.`,
  ],
  [
    'spots[].schedules[].timeZone',
    '`UTC`',
    'IANA time zone of a `cron()` expression, in any case; the stack writes its own name (`europe/paris` → `Europe/Paris`).',
  ],
  [
    'spots[].schedules[].flexibleWindowMinutes',
    'none',
    `Each run starts at a random moment within this many minutes (1 to ${MAX_FLEXIBLE_WINDOW_MINUTES}) after its scheduled time; the exported window still ends at the scheduled time.`,
  ],
  [
    'auth',
    '`{"mode":"iam"}`',
    'Who may call the HTTP API: `{"mode":"iam","spotsByPrincipal":{"<role ARN>":["sp_…"]}}` (SigV4, `execute-api:Invoke`; `spotsByPrincipal` optional) or `{"mode":"jwt","issuer":"https://…","audience":["…"],"scopes":["…"],"spotClaim":"…"}` for API Gateway\'s JWT authorizer (`scopes` and `spotClaim` optional).',
  ],
  [
    'alarmEmail',
    'none',
    'An address or a list of them; the alarms then notify through an encrypted SNS topic (confirm the subscription email).',
  ],
];

/** docs/configuration.md, from the settings table. */
export function renderConfigurationPage(): string {
  const stackRows = ALL_SETTINGS.filter((setting) => setting.path !== undefined);
  const functionRows = ALL_SETTINGS.filter(
    (setting) => setting.readBy !== undefined && setting.scope !== 'local',
  );
  const localRows = ALL_SETTINGS.filter((setting) => setting.scope === 'local');
  return [
    '# Configuration',
    '',
    `<!-- Written by \`${CONFIGURATION_PAGE_COMMAND}\` from lib/settings/settingsTable.ts and settingDescriptions.ts: change them, then run it. -->`,
    '',
    'Every setting of openweb-exports is one row of the settings table, `lib/settings/settingsTable.ts`: its',
    "key in the stack configuration, its environment variable, its place in the functions' configuration,",
    'default, values and unit; its meaning is beside it in `lib/settings/settingDescriptions.ts`, which the',
    "functions do not carry. The functions' configuration (the export lifecycle's settings included), the",
    "stack configuration, the functions' environment, the construct's props, `npm start`'s settings and",
    'this page are derived from them; to add a setting, add a row and its description.',
    '',
    'The functions check their environment once, at cold start, and name every bad variable. The stack',
    'checks its configuration at synthesis with the same checks and names every bad key by its path',
    '(`openwebExports.polling.exportDeadlineSeconds: must be at least 300`), and the key probably meant',
    'for a mistyped one (`unknown key "spot" (did you mean "spots"?)`).',
    '',
    '## The stack configuration',
    '',
    `The same keys, checks and defaults everywhere: \`cdk.json\` \`context.${STACK_CONFIG_CONTEXT_KEY}\`,`,
    `\`npx cdk deploy -c ${STACK_CONFIG_CONTEXT_KEY}='{…}'\` (which wins), \`LOCAL_STACK_CONFIG\` for \`npm start\`, and the`,
    'props of the `OpenWebExports` construct (`infra/OpenWebExports.ts`, typed from the table; its',
    'own `namePrefix`, default `<stack name>-<construct id>`, starts the names of the state machine, the',
    'event bus and the dashboard). Every key is optional.',
    '',
    '```json',
    '{',
    '  "spots": [',
    '    { "spotId": "sp_abc123", "schedules": [{ "expression": "cron(0 2 * * ? *)", "window": "P1D", "timeZone": "Europe/Paris" }] }',
    '  ],',
    '  "polling": { "exportDeadlineSeconds": 21600 },',
    '  "alarmEmail": "ops@example.com"',
    '}',
    '```',
    '',
    '### Structure',
    '',
    '| key | default | meaning |',
    '| --- | --- | --- |',
    ...STRUCTURE_ROWS.map(([key, defaultText, meaning]) => row([code(key), defaultText, meaning])),
    '',
    '### Settings',
    '',
    'A setting that the functions read is passed to them as the variable named in the last column.',
    '',
    '| key | default | values | unit | meaning | variable |',
    '| --- | --- | --- | --- | --- | --- |',
    ...stackRows.map((setting) =>
      row([
        code(setting.path as string),
        defaultOf(setting, 'json'),
        valuesOf(setting),
        setting.unit ?? '',
        setting.description,
        setting.env !== undefined && setting.readBy !== undefined ? code(setting.env) : '',
      ]),
    ),
    '',
    "## The functions' environment",
    '',
    'The stack writes each function the variables its group reads: `lifecycle` is every function but files',
    'and archive, `archive` is those two, `all` is every function. A variable that the stack does not write',
    '(no key in the last column) keeps its default; set it on the function to change it.',
    '',
    '| variable | default | values | unit | read by | meaning | written from |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...functionRows.map((setting) =>
      row([
        code(setting.env as string),
        defaultOf(setting, 'env'),
        valuesOf(setting),
        setting.unit ?? '',
        setting.readBy as string,
        setting.description,
        writtenFrom(setting),
      ]),
    ),
    '',
    '## `npm start`',
    '',
    '`npm start` reads these, and passes its whole environment on to the handlers: a variable of the',
    "functions' environment set there (`UPSTREAM_MAX_REQUESTS_PER_SECOND=20 npm start`) wins over the",
    'stack configuration. `OPENWEB_AUTH_BASE_URL` and `OPENWEB_EXPORT_BASE_URL` also decide the upstream:',
    'unset, the built-in simulator; set, the real upstream (with `LOCAL_SECRETS_FILE`).',
    '',
    '| variable | default | values | unit | meaning |',
    '| --- | --- | --- | --- | --- |',
    ...localRows.map((setting) =>
      row([
        [setting.overridingEnv, setting.env]
          .filter((name) => name !== undefined)
          .map((name) => code(name as string))
          .join(' or '),
        defaultOf(setting, 'env'),
        valuesOf(setting),
        setting.unit ?? '',
        setting.description,
      ]),
    ),
    '',
  ].join('\n');
}

function row(cells: readonly string[]): string {
  return `| ${cells.map((cell) => cell.replaceAll('|', '\\|')).join(' | ')} |`;
}

function code(text: string): string {
  return `\`${text}\``;
}

/** The default as written in the stack configuration (JSON) or in the environment. */
function defaultOf(setting: DescribedSetting, form: 'json' | 'env'): string {
  const value = setting.default;
  if (value === undefined) return setting.defaultText ?? 'none';
  let text: string;
  if (form === 'json') text = Array.isArray(value) ? JSON.stringify(value) : String(value);
  else if (
    typeof value === 'boolean' &&
    setting.kind.type === 'boolean' &&
    setting.kind.words !== undefined
  ) {
    text = setting.kind.words[value ? 0 : 1];
  } else text = settingText(value) as string;
  const duration = readableDuration(setting);
  return duration === undefined ? code(text) : `${code(text)} (${duration})`;
}

/** `21600` seconds → `6 h`; undefined when the default is no duration worth restating. */
function readableDuration(setting: Setting): string | undefined {
  const value = setting.default;
  if (typeof value !== 'number') return undefined;
  const seconds =
    setting.unit === 'seconds' ? value : setting.unit === 'milliseconds' ? value / 1000 : undefined;
  if (seconds === undefined || seconds < SECONDS_PER_MINUTE) return undefined;
  if (seconds % SECONDS_PER_DAY === 0) return `${seconds / SECONDS_PER_DAY} d`;
  if (seconds % SECONDS_PER_HOUR === 0) return `${seconds / SECONDS_PER_HOUR} h`;
  return seconds % SECONDS_PER_MINUTE === 0 ? `${seconds / SECONDS_PER_MINUTE} min` : undefined;
}

function valuesOf(setting: Setting): string {
  const values = valuesOfKind(setting.kind);
  return setting.nullable === true ? `${values}, or \`null\`` : values;
}

function valuesOfKind(kind: SettingKind): string {
  switch (kind.type) {
    case 'integer':
      return `whole number, ${kind.min} to ${kind.max}`;
    case 'number':
      return kind.minExclusive === true
        ? `above ${kind.min}, at most ${kind.max}`
        : `${kind.min} to ${kind.max}`;
    case 'boolean':
      return (kind.words ?? ['true', 'false']).map(code).join(' or ');
    case 'enum':
      return `${kind.values.map(code).join(', ')}${kind.ignoreCase === true ? ' (any case)' : ''}`;
    case 'oneOf':
      return kind.values.join(', ');
    case 'text':
      return kind.message.replace(/^must be /, '');
    case 'url':
      return 'an http(s) URL';
    case 'hostList':
      return '`host`, `host:port` or `*.domain.tld` entries, in lower case';
    case 'path':
      return 'a path';
    case 'json':
      return 'JSON';
    case 'schedule':
      return kind.forms.map((form) => code(`${form}()`)).join(' or ');
    case 'spotsByPrincipal':
      return `an object of IAM role or user ARNs to lists of spot ids (its JSON in the environment), at most ${kind.maxJsonChars} characters as JSON`;
  }
}

function writtenFrom(setting: Setting): string {
  if (setting.scope === 'resource') return 'the stack';
  if (setting.path !== undefined) {
    return setting.optionalInStack === true ? `${code(setting.path)}, when set` : code(setting.path);
  }
  return setting.writtenAsDefault === true ? 'its default' : '';
}
