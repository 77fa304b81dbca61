/**
 * Who sets a setting: `deployment` the stack configuration or the functions' environment,
 * `resource` the stack, naming a resource it creates, `local` only `npm start`'s environment.
 */
export type SettingScope = 'deployment' | 'resource' | 'local';

/** Functions that read the same variables: `lifecycle` every function but files and archive, `archive` those two. */
export type FunctionGroup = 'lifecycle' | 'archive';

/** Which functions' environment holds a variable. */
export type SettingReaders = FunctionGroup | 'all';

export type SettingUnit =
  | 'seconds'
  | 'milliseconds'
  | 'minutes'
  | 'days'
  | 'requests/s'
  | 'requests'
  | 'attempts'
  | 'records'
  | 'records/hour'
  | 'gigabytes'
  | 'spots'
  | 'exports';

/** A setting's values and how they are written. */
export type SettingKind =
  /** `maxReason`: why the bound is where it is, told with the refusal of a value above it. */
  | { type: 'integer'; min: number; max: number; maxReason?: string }
  /** `minExclusive`: greater than `min`, not equal to it. */
  | { type: 'number'; min: number; max: number; minExclusive?: true }
  /** In the environment: `words` ([true, false]), `true`/`false` by default. */
  | { type: 'boolean'; words?: readonly [string, string] }
  /** `ignoreCase`: read in any case, kept as listed. */
  | { type: 'enum'; values: readonly string[]; ignoreCase?: true }
  | { type: 'oneOf'; values: readonly number[] }
  /** A non-empty string matching `pattern`; `message` says what it must be. */
  | { type: 'text'; pattern: RegExp; message: string }
  /** An http(s) URL, kept without trailing slashes. */
  | { type: 'url' }
  /** Download hosts (`host`, `host:port`, `*.domain.tld`): a list in the stack config, comma-separated in the environment. */
  | { type: 'hostList' }
  /** A file or folder path. */
  | { type: 'path' }
  /** JSON text, parsed by whoever reads it. */
  | { type: 'json' }
  /** An EventBridge Scheduler expression of the given forms, checked by the stack's schedule-expression validator. */
  | { type: 'schedule'; forms: readonly ('rate' | 'cron')[] }
  /**
   * IAM role or user ARNs, each to the non-empty list of spot ids it may use: an object in the
   * stack configuration, its JSON in the environment, at most `maxJsonChars` as JSON.
   */
  | { type: 'spotsByPrincipal'; maxJsonChars: number };

/** The groups of the functions' configuration (lib/config.ts). */
export type ConfigGroup = 'openWeb' | 'archive' | 'credentials' | 'resources' | 'exports' | 'authorization';

export type SettingDefault = number | string | boolean | readonly string[];

/**
 * One row of the settings table: a setting, once. Its prose (what it means, what unset means)
 * is in lib/settings/settingDescriptions.ts, which the functions do not carry.
 */
export interface Setting {
  /** The variable the functions or `npm start` read. */
  env?: string;
  /**
   * Where the functions' configuration holds the value, `<group>.<key>` (lib/config.ts), e.g.
   * `exports.windowRetryCooldownSeconds`: the `exports` group is the export lifecycle's settings
   * (`ExportSettings`). Every variable the functions read themselves has one.
   */
  config?: `${ConfigGroup}.${string}`;
  /**
   * `npm start` multiplies the value by its time scale (`LOCAL_TIME_SCALE`): a duration of the
   * upstream's world (simulated with it), not one that guards real I/O.
   */
  timeScaled?: true;
  /** A second variable read first by `npm start` (Powertools' own precedence between two names). */
  overridingEnv?: string;
  /** Key path in the stack configuration (`cdk.json` `openwebExports`, construct props), e.g. `polling.exportDeadlineSeconds`. */
  path?: string;
  scope: SettingScope;
  /** Which functions' environment holds the variable. */
  readBy?: SettingReaders;
  /** Read by Powertools, not by the functions' configuration. */
  readByPowertools?: true;
  /** The stack writes the default into the function environment (the setting has no stack configuration key). */
  writtenAsDefault?: true;
  /** Left out of the stack configuration when not given: the variable is then not written and the functions use the default. */
  optionalInStack?: true;
  kind: SettingKind;
  /** Unset (or empty) means this value; no default: unset means none. */
  default?: SettingDefault;
  /** The stack configuration also takes `null` (see the description). */
  nullable?: true;
  unit?: SettingUnit;
}

type KindValue<K extends SettingKind> = K extends { type: 'integer' | 'number' | 'oneOf' }
  ? number
  : K extends { type: 'boolean' }
    ? boolean
    : K extends { type: 'enum'; values: readonly (infer V)[] }
      ? V
      : K extends { type: 'hostList' }
        ? string[]
        : K extends { type: 'spotsByPrincipal' }
          ? Record<string, string[]>
          : string;

/** The value of a setting, `null` included where the stack configuration takes it. */
export type SettingValue<S extends Setting> =
  | KindValue<S['kind']>
  | (S extends { nullable: true } ? null : never);

/** Whether a setting always has a value once read (it has a default). */
export type HasDefault<S extends Setting> = S extends { default: SettingDefault } ? true : false;
