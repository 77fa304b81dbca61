import { isDownloadHostEntry } from './downloadHostEntry';
import { isIamPrincipalArn } from './iamPrincipalArn';
import type { Setting, SettingKind } from './Setting';
import { SPOT_ID_MESSAGE, SPOT_ID_PATTERN } from './spotId';

/** What is wrong with a value; `path` points inside it (a list's entry, an object's key). */
export interface SettingIssue {
  message: string;
  path?: readonly (string | number)[];
}

export type SettingCheck = { ok: true; value: unknown } | { ok: false; issues: SettingIssue[] };

const HOST_LIST_MESSAGE = 'must be a comma-separated list of host, host:port or *.domain.tld entries';
const HOST_ENTRY_MESSAGE = 'must be host, host:port or *.domain.tld, in lower case';
const URL_MESSAGE = 'must be an http(s) URL';
const SPOTS_BY_PRINCIPAL_MESSAGE = 'must be an object of IAM role or user ARNs to lists of spot ids';
const SPOTS_BY_PRINCIPAL_TEXT_MESSAGE =
  'must be a JSON object of IAM role or user ARNs, each to a list of spot ids (sp_…)';
const PRINCIPAL_KEY_MESSAGE =
  'keys must be IAM role or user ARNs (arn:aws:iam::<account>:role/<name>), no wildcard';

const valid = (value: unknown): SettingCheck => ({ ok: true, value });
const invalid = (message: string, path?: readonly (string | number)[]): SettingCheck => ({
  ok: false,
  issues: [path === undefined ? { message } : { message, path }],
});

/**
 * A value of `setting` as an environment variable holds it (numbers and booleans as text,
 * lists comma-separated) → the typed value, or what is wrong with it.
 */
export function settingFromText(setting: Setting, text: string): SettingCheck {
  const { kind } = setting;
  switch (kind.type) {
    case 'integer':
    case 'number':
    case 'oneOf':
      return checkNumber(kind, Number(text));
    case 'boolean': {
      const [yes, no] = kind.words ?? ['true', 'false'];
      if (text === yes) return valid(true);
      if (text === no) return valid(false);
      return invalid(`must be ${yes} or ${no}`);
    }
    case 'hostList': {
      const entries = text
        .split(',')
        .map((entry) => entry.trim().toLowerCase())
        .filter((entry) => entry !== '');
      return entries.length > 0 && entries.every(isDownloadHostEntry)
        ? valid(entries)
        : invalid(HOST_LIST_MESSAGE);
    }
    case 'spotsByPrincipal':
      return spotsByPrincipalFromText(kind, text);
    default:
      return checkString(kind, text);
  }
}

/** A value of `setting` as the stack configuration (JSON) holds it → the typed value, or what is wrong with it. */
export function settingFromJson(setting: Setting, value: unknown): SettingCheck {
  const { kind } = setting;
  if (value === null && setting.nullable === true) return valid(null);
  switch (kind.type) {
    case 'integer':
    case 'number':
    case 'oneOf':
      return typeof value === 'number' ? checkNumber(kind, value) : invalid('must be a number');
    case 'boolean':
      return typeof value === 'boolean' ? valid(value) : invalid('must be true or false');
    case 'hostList':
      return checkHostList(value);
    case 'spotsByPrincipal':
      return checkSpotsByPrincipal(kind, value);
    default:
      if (typeof value !== 'string') return invalid('must be a string');
      if (value === '') return invalid('must not be empty');
      return checkString(kind, value);
  }
}

/** How the function environment writes `value` (lists comma-separated, objects as JSON); undefined and null are not written. */
export function settingText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return value.join(',');
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function checkNumber(
  kind: SettingKind & { type: 'integer' | 'number' | 'oneOf' },
  value: number,
): SettingCheck {
  if (Number.isNaN(value)) return invalid('must be a number');
  if (kind.type === 'oneOf') {
    return kind.values.includes(value) ? valid(value) : invalid(`must be one of ${kind.values.join(', ')}`);
  }
  if (kind.type === 'integer' && !Number.isInteger(value)) return invalid('must be an integer');
  if (kind.type === 'number' && kind.minExclusive === true && value <= kind.min) {
    return invalid(`must be greater than ${kind.min}`);
  }
  if (value < kind.min) return invalid(`must be at least ${kind.min}`);
  if (value > kind.max) {
    const reason = kind.type === 'integer' && kind.maxReason !== undefined ? ` (${kind.maxReason})` : '';
    return invalid(`must be at most ${kind.max}${reason}`);
  }
  return valid(value);
}

function checkString(kind: SettingKind, text: string): SettingCheck {
  switch (kind.type) {
    case 'enum': {
      const wanted = kind.ignoreCase === true ? text.trim().toLowerCase() : text;
      const found = kind.values.find(
        (value) => (kind.ignoreCase === true ? value.toLowerCase() : value) === wanted,
      );
      return found === undefined ? invalid(`must be one of ${kind.values.join(', ')}`) : valid(found);
    }
    case 'text':
      return kind.pattern.test(text) ? valid(text) : invalid(kind.message);
    case 'url':
      return isHttpUrl(text) ? valid(text.replace(/\/+$/, '')) : invalid(URL_MESSAGE);
    default:
      // Paths, JSON text and schedule expressions: whoever reads them checks the rest.
      return valid(text);
  }
}

function checkHostList(value: unknown): SettingCheck {
  if (!Array.isArray(value)) return invalid('must be a list of host, host:port or *.domain.tld entries');
  if (value.length === 0) return invalid('must list at least one host');
  const issues = value.flatMap((entry: unknown, index): SettingIssue[] => {
    if (typeof entry !== 'string') return [{ message: 'must be a string', path: [index] }];
    return isDownloadHostEntry(entry) ? [] : [{ message: HOST_ENTRY_MESSAGE, path: [index] }];
  });
  return issues.length === 0 ? valid(value) : { ok: false, issues };
}

/**
 * `{"arn:aws:iam::…:role/name": ["sp_a"]}`: every key a role or user ARN, every value a non-empty
 * list of spot ids, the whole at most `maxJsonChars` as JSON (it travels in one variable of the
 * functions' environment, whose variables Lambda limits to 4 KB together).
 */
function checkSpotsByPrincipal(
  kind: SettingKind & { type: 'spotsByPrincipal' },
  value: unknown,
): SettingCheck {
  const issues = spotsByPrincipalIssues(value);
  return issues.length > 0 ? { ok: false, issues } : checkJsonLength(kind, value);
}

/** The map from its JSON text: a malformed map is one problem, naming the form it must have. */
function spotsByPrincipalFromText(
  kind: SettingKind & { type: 'spotsByPrincipal' },
  text: string,
): SettingCheck {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return invalid(SPOTS_BY_PRINCIPAL_TEXT_MESSAGE);
  }
  return spotsByPrincipalIssues(parsed).length > 0
    ? invalid(SPOTS_BY_PRINCIPAL_TEXT_MESSAGE)
    : checkJsonLength(kind, parsed);
}

function spotsByPrincipalIssues(value: unknown): SettingIssue[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return [{ message: SPOTS_BY_PRINCIPAL_MESSAGE }];
  }
  const entries = Object.entries(value);
  if (entries.some(([arn]) => !isIamPrincipalArn(arn))) return [{ message: PRINCIPAL_KEY_MESSAGE }];
  return entries.flatMap(([arn, spots]): SettingIssue[] => {
    if (!Array.isArray(spots)) return [{ message: 'must be a list of spot ids', path: [arn] }];
    if (spots.length === 0) return [{ message: 'must list at least one spot', path: [arn] }];
    return spots.flatMap((spot: unknown, index): SettingIssue[] =>
      typeof spot === 'string' && SPOT_ID_PATTERN.test(spot)
        ? []
        : [{ message: SPOT_ID_MESSAGE, path: [arn, index] }],
    );
  });
}

function checkJsonLength(kind: SettingKind & { type: 'spotsByPrincipal' }, value: unknown): SettingCheck {
  const chars = JSON.stringify(value).length;
  if (chars <= kind.maxJsonChars) return valid(value);
  return invalid(
    `is ${chars} characters as JSON, more than ${kind.maxJsonChars} (it travels in the functions' ` +
      'environment, 4 KB in all): map fewer roles, or give callers with the same spots one role',
  );
}

function isHttpUrl(text: string): boolean {
  try {
    const { protocol, hostname } = new URL(text);
    return (protocol === 'http:' || protocol === 'https:') && hostname !== '';
  } catch {
    return false;
  }
}
