import { describe, expect, it } from 'vitest';
import type { Setting } from '../../../../lib/settings/Setting';
import { settingFromJson, settingFromText, settingText } from '../../../../lib/settings/settingValue';

const setting = (kind: Setting['kind'], extra: Partial<Setting> = {}): Setting => ({
  scope: 'deployment',
  kind,
  ...extra,
});
const SECONDS = setting({ type: 'integer', min: 300, max: 600 });
const RATE = setting({ type: 'number', min: 0, minExclusive: true, max: 10 });
const EXPIRY = setting({ type: 'integer', min: 60, max: 3600, maxReason: 'sessions end' });
const SPOTS_BY_PRINCIPAL = setting({ type: 'spotsByPrincipal', maxJsonChars: 80 });
const ROLE = 'arn:aws:iam::123456789012:role/exports';
const SPOTS_BY_PRINCIPAL_TEXT = /^must be a JSON object of IAM role or user ARNs/;

describe('settingFromText', () => {
  it.each([
    [SECONDS, '300', { ok: true, value: 300 }],
    [SECONDS, 'many', { ok: false, issues: [{ message: 'must be a number' }] }],
    [SECONDS, '301.5', { ok: false, issues: [{ message: 'must be an integer' }] }],
    [SECONDS, '299', { ok: false, issues: [{ message: 'must be at least 300' }] }],
    [SECONDS, '601', { ok: false, issues: [{ message: 'must be at most 600' }] }],
    [EXPIRY, '3601', { ok: false, issues: [{ message: 'must be at most 3600 (sessions end)' }] }],
    [RATE, '0.5', { ok: true, value: 0.5 }],
    [RATE, '0', { ok: false, issues: [{ message: 'must be greater than 0' }] }],
    [setting({ type: 'boolean' }), 'false', { ok: true, value: false }],
    [setting({ type: 'boolean', words: ['on', 'off'] }), 'on', { ok: true, value: true }],
    [
      setting({ type: 'boolean', words: ['on', 'off'] }),
      'yes',
      { ok: false, issues: [{ message: 'must be on or off' }] },
    ],
    [
      setting({ type: 'enum', values: ['WARN', 'INFO'], ignoreCase: true }),
      ' info ',
      { ok: true, value: 'INFO' },
    ],
    [
      setting({ type: 'enum', values: ['WARN', 'INFO'] }),
      'info',
      { ok: false, issues: [{ message: 'must be one of WARN, INFO' }] },
    ],
    [
      setting({ type: 'oneOf', values: [1, 3] }),
      '2',
      { ok: false, issues: [{ message: 'must be one of 1, 3' }] },
    ],
    [
      setting({ type: 'text', pattern: /^a+$/, message: 'must be a run of a' }),
      'ab',
      { ok: false, issues: [{ message: 'must be a run of a' }] },
    ],
    [setting({ type: 'url' }), 'http://127.0.0.1:4010//', { ok: true, value: 'http://127.0.0.1:4010' }],
    [
      setting({ type: 'url' }),
      'ftp://example.com',
      { ok: false, issues: [{ message: 'must be an http(s) URL' }] },
    ],
    [
      setting({ type: 'hostList' }),
      ' A.example.com , *.cdn.example.org,',
      { ok: true, value: ['a.example.com', '*.cdn.example.org'] },
    ],
    [
      setting({ type: 'hostList' }),
      '*.com',
      { ok: false, issues: [{ message: expect.stringMatching(/comma-separated list/) }] },
    ],
    [SPOTS_BY_PRINCIPAL, `{"${ROLE}": ["sp_a"]}`, { ok: true, value: { [ROLE]: ['sp_a'] } }],
    [
      SPOTS_BY_PRINCIPAL,
      '{',
      { ok: false, issues: [{ message: expect.stringMatching(SPOTS_BY_PRINCIPAL_TEXT) }] },
    ],
    [
      SPOTS_BY_PRINCIPAL,
      `{"${ROLE}": ["a"]}`,
      { ok: false, issues: [{ message: expect.stringMatching(SPOTS_BY_PRINCIPAL_TEXT) }] },
    ],
    [
      SPOTS_BY_PRINCIPAL,
      `{"${ROLE}": ["sp_a", "sp_b", "sp_c", "sp_d", "sp_e", "sp_f"]}`,
      { ok: false, issues: [{ message: expect.stringMatching(/^is 86 characters as JSON, more than 80 /) }] },
    ],
  ])('reads %j from %j', (kind, text, expected) => {
    // Act / Assess
    expect(settingFromText(kind, text)).toEqual(expected);
  });
});

describe('settingFromJson', () => {
  it.each([
    [SECONDS, 300, { ok: true, value: 300 }],
    [SECONDS, '300', { ok: false, issues: [{ message: 'must be a number' }] }],
    [setting({ type: 'boolean' }), 'true', { ok: false, issues: [{ message: 'must be true or false' }] }],
    [setting({ type: 'integer', min: 30, max: 90 }, { nullable: true }), null, { ok: true, value: null }],
    [SECONDS, null, { ok: false, issues: [{ message: 'must be a number' }] }],
    [
      setting({ type: 'text', pattern: /^a+$/, message: 'must be a run of a' }),
      '',
      { ok: false, issues: [{ message: 'must not be empty' }] },
    ],
    [
      setting({ type: 'text', pattern: /^a+$/, message: 'must be a run of a' }),
      7,
      { ok: false, issues: [{ message: 'must be a string' }] },
    ],
    [setting({ type: 'hostList' }), [], { ok: false, issues: [{ message: 'must list at least one host' }] }],
    [
      setting({ type: 'hostList' }),
      ['ok.example.com', 'Upper.example.com', 3],
      {
        ok: false,
        issues: [
          { message: 'must be host, host:port or *.domain.tld, in lower case', path: [1] },
          { message: 'must be a string', path: [2] },
        ],
      },
    ],
    [SPOTS_BY_PRINCIPAL, { [ROLE]: ['sp_a'] }, { ok: true, value: { [ROLE]: ['sp_a'] } }],
    [
      SPOTS_BY_PRINCIPAL,
      [ROLE],
      { ok: false, issues: [{ message: 'must be an object of IAM role or user ARNs to lists of spot ids' }] },
    ],
    [
      SPOTS_BY_PRINCIPAL,
      { 'arn:aws:iam::123456789012:role/*': ['sp_a'] },
      { ok: false, issues: [{ message: expect.stringMatching(/^keys must be IAM role or user ARNs/) }] },
    ],
    [
      SPOTS_BY_PRINCIPAL,
      { [ROLE]: ['sp_a', 'a'], 'arn:aws:iam::123456789012:user/robot': [] },
      {
        ok: false,
        issues: [
          { message: expect.stringMatching(/^must look like sp_/), path: [ROLE, 1] },
          { message: 'must list at least one spot', path: ['arn:aws:iam::123456789012:user/robot'] },
        ],
      },
    ],
  ])('reads %j from %j', (kind, value, expected) => {
    // Act / Assess
    expect(settingFromJson(kind, value)).toEqual(expected);
  });
});

describe('settingText', () => {
  it('writes numbers and booleans as text, lists comma-separated, objects as JSON, and nothing for unset values', () => {
    // Act / Assess
    expect(
      [300, true, ['a.example.com', 'b.example.com'], { [ROLE]: ['sp_a'] }, 'x', undefined, null].map(
        settingText,
      ),
    ).toEqual([
      '300',
      'true',
      'a.example.com,b.example.com',
      `{"${ROLE}":["sp_a"]}`,
      'x',
      undefined,
      undefined,
    ]);
  });
});
