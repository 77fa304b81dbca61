import { rowsRemovedBy } from '../../../lib/exports/erasure/ErasureRecord';
import type { ExportRecord } from '../../../lib/exports/record/ExportRecord';
import { ExportStatus } from '../../../lib/exports/record/ExportStatus';
import {
  CREATE_REFUSED_REASON_PREFIX,
  REQUEST_REJECTED_REASON_PREFIX,
} from '../../../lib/exports/record/failureReasons';
import type { SimulatorRequest } from '../../../local/openweb-simulator/index';
import { erasuresOf } from './erasureSteps';
import type { FaultScenario } from './FaultScenario';

interface GroupTally {
  scenarios: number;
  faults: number;
  started: number;
  completed: number;
  aborted: number;
  /** FAILED because the upstream said so: it reported the export failed (the drive makes some fail). */
  failedUpstream: number;
  /** FAILED because the upstream refused the create. */
  failedRejected: number;
  /** FAILED for any other reason: what goodput counts against the system. */
  failedOther: number;
  violations: number;
}

const EMPTY_TALLY: GroupTally = {
  scenarios: 0,
  faults: 0,
  started: 0,
  completed: 0,
  aborted: 0,
  failedUpstream: 0,
  failedRejected: 0,
  failedOther: 0,
  violations: 0,
};

/** Why an export FAILED, for the report's columns. */
function failureKind(record: ExportRecord): 'failedUpstream' | 'failedRejected' | 'failedOther' {
  const reason = record.failureReason ?? '';
  if (reason.startsWith('the upstream reported')) return 'failedUpstream';
  if (reason.startsWith(CREATE_REFUSED_REASON_PREFIX) || reason.startsWith(REQUEST_REJECTED_REASON_PREFIX))
    return 'failedRejected';
  return 'failedOther';
}

/**
 * Goodput: the share of exports that COMPLETED among those neither aborted by the scenario
 * nor ended by the upstream's own verdict (reported failed, or create refused). Undefined
 * when there is none.
 */
export function goodputOf(tally: GroupTally): number | undefined {
  const counted = tally.completed + tally.failedOther;
  return counted === 0 ? undefined : tally.completed / counted;
}

/** Tolerated findings listed in full up to this many; the count covers the rest. */
const MAX_LISTED_FINDINGS = 5;

/** Names the faults of the simulator's request log in the summary. */
const FAULT_LABELS: Record<string, string> = {
  error: 'upstream 5xx',
  rateLimit: 'upstream 429 (injected)',
  resetBeforeProcessing: 'connection reset before processing',
  resetAfterProcessing: 'connection reset after processing',
  malformedBody: 'malformed body',
  latency: 'latency beyond the client timeout',
  authRateLimited: 'auth 1/s limit hit (429)',
  tokenRejected: 'expired token rejected (401)',
  processCrash: 'process crash between I/O steps',
  duplicateScheduleDelivery: 'schedule event delivered again',
  concurrentScheduleDelivery: 'schedule event delivered concurrently',
  runtimeRestart: 'runtime restart (workflows dropped)',
  forcedTokenExpiry: 'forced token expiry',
  abortRacingCompletion: 'abort racing completion',
  secondPoller: 'second workflow for one export',
  erasureCrash: 'erasure run killed between I/O steps',
};

/**
 * What the fault suite did, across scenarios: how many ran, which faults were injected,
 * how the exports ended, and every invariant violation (which must stay at zero).
 */
export class ReliabilityReport {
  readonly violations: string[] = [];
  /** Documented departures that block nothing (e.g. a stale lock a crash left to its lease). */
  readonly tolerated: string[] = [];
  /** Why each export that counts against goodput FAILED. */
  readonly otherFailures: string[] = [];
  /** The scenarios tallied so far. */
  readonly scenarioNames = new Set<string>();
  readonly #groups = new Map<string, GroupTally>();
  readonly #faults = new Map<string, number>();
  /** Where scenarios archive: the archives of COMPLETED exports, by how they ended. */
  readonly #archives = new Map<string, number>();
  /** Where scenarios archive: the erasures asked for, by how they ended, and what they rewrote. */
  readonly #erasures = new Map<string, number>();
  #erasedFiles = 0;
  #erasedRows = 0;

  /** Tallies a finished scenario: its faults, its exports' end states and its violations. */
  async add(group: string, scenarioName: string, scenario: FaultScenario, violations: string[]) {
    const tally = this.#groups.get(group) ?? { ...EMPTY_TALLY };
    tally.scenarios += 1;
    const faults = [
      ...upstreamFaults(scenario.harness.simulator.requestLog),
      ...scenario.processFaults,
      // AWS-side: attempts refused (the SDK retried some of them), and PutEvents entries refused.
      ...(scenario.aws?.refused ?? []),
      ...[...(scenario.eventBus?.refusedEntries ?? [])].map(
        ([code, count]) => [`EventBridge entry ${code}`, count] as const,
      ),
    ];
    for (const [kind, count] of faults) {
      this.#faults.set(kind, (this.#faults.get(kind) ?? 0) + count);
      tally.faults += count;
    }
    for (const record of await scenario.records()) {
      if (scenario.archiveStorage !== undefined && record.status === ExportStatus.COMPLETED) {
        const archive = record.archive?.status ?? 'not started';
        this.#archives.set(archive, (this.#archives.get(archive) ?? 0) + 1);
      }
      tally.started += 1;
      if (record.status === ExportStatus.COMPLETED) tally.completed += 1;
      else if (record.status === ExportStatus.ABORTED) tally.aborted += 1;
      else if (record.status === ExportStatus.FAILED) {
        const kind = failureKind(record);
        tally[kind] += 1;
        if (kind === 'failedOther')
          this.otherFailures.push(`${scenarioName}: ${record.failureReason ?? '(no reason)'}`);
      }
    }
    if (scenario.archiveStorage !== undefined) {
      for (const erasure of await erasuresOf(scenario)) {
        this.#erasures.set(erasure.status, (this.#erasures.get(erasure.status) ?? 0) + 1);
        this.#erasedFiles += erasure.files.length;
        this.#erasedRows += rowsRemovedBy(erasure);
      }
    }
    tally.violations += violations.length;
    this.violations.push(...violations.map((violation) => `${scenarioName}: ${violation}`));
    this.tolerated.push(...scenario.toleratedFindings.map((finding) => `${scenarioName}: ${finding}`));
    this.#groups.set(group, tally);
    this.scenarioNames.add(scenarioName);
  }

  /** Goodput of all groups whose name starts with `prefix`, taken together; undefined when none counted. */
  goodputOfGroups(prefix: string): number | undefined {
    const together = { ...EMPTY_TALLY };
    for (const [group, tally] of this.#groups) {
      if (!group.startsWith(prefix)) continue;
      together.completed += tally.completed;
      together.failedOther += tally.failedOther;
    }
    return goodputOf(together);
  }

  /** Every group's tally added up. */
  total(): GroupTally {
    return [...this.#groups.values()].reduce(
      (sum, tally) => {
        for (const key of Object.keys(sum) as (keyof GroupTally)[]) sum[key] += tally[key];
        return sum;
      },
      { ...EMPTY_TALLY },
    );
  }

  /** The summary table, ready for the console. */
  format(title: string): string {
    const total = this.total();
    const header = [
      'group',
      'scenarios',
      'faults',
      'started',
      'completed',
      'aborted',
      'failed: upstream said',
      'failed: create refused',
      'failed: other',
      'goodput',
      'violations',
    ];
    const rows = [...this.#groups, ['TOTAL', total] as const].map(([group, tally]) => {
      const goodput = goodputOf(tally);
      return [
        group,
        ...[
          tally.scenarios,
          tally.faults,
          tally.started,
          tally.completed,
          tally.aborted,
          tally.failedUpstream,
          tally.failedRejected,
          tally.failedOther,
        ].map(String),
        goodput === undefined ? '–' : `${(goodput * 100).toFixed(1)} %`,
        String(tally.violations),
      ];
    });
    const faultRows = [...this.#faults]
      .map(([kind, count]) => [FAULT_LABELS[kind] ?? kind, String(count)])
      .sort(([a = ''], [b = '']) => a.localeCompare(b));
    return [
      title,
      table([header, ...rows]),
      '',
      'faults injected, by kind',
      table([['fault', 'count'], ...faultRows]),
      ...(this.#archives.size === 0
        ? []
        : [
            '',
            `archives of COMPLETED exports where the scenario archives: ${[...this.#archives]
              .map(([status, count]) => `${status} ${count}`)
              .join(', ')}`,
          ]),
      ...(this.#erasures.size === 0
        ? []
        : [
            `erasures where the scenario archives: ${[...this.#erasures]
              .map(([status, count]) => `${status} ${count}`)
              .join(', ')}; files rewritten ${this.#erasedFiles}, rows removed ${this.#erasedRows}`,
          ]),
      '',
      `tolerated (stale spot lock left by a crash between the terminal write and the release; the next start takes it over): ${this.tolerated.length}`,
      ...this.tolerated.slice(0, MAX_LISTED_FINDINGS).map((finding) => `  - ${finding}`),
      '',
      'goodput: completed ÷ (completed + failed: other); aborted exports and the upstream’s own verdicts are left out',
      ...this.otherFailures.map((failure) => `  failed: other — ${failure}`),
      `invariant violations: ${total.violations}`,
      ...this.violations.map((violation) => `  - ${violation}`),
    ].join('\n');
  }
}

function upstreamFaults(log: readonly SimulatorRequest[]): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (kind: string) => counts.set(kind, (counts.get(kind) ?? 0) + 1);
  for (const entry of log) {
    if (entry.fault !== undefined) add(entry.fault);
    else if (entry.endpoint === 'auth' && entry.status === 429) add('authRateLimited');
    else if (entry.endpoint !== 'auth' && entry.status === 401) add('tokenRejected');
  }
  return counts;
}

function table(rows: string[][]): string {
  const widths = (rows[0] ?? []).map((_, column) =>
    Math.max(...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (row: string[]) =>
    `| ${row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join(' | ')} |`;
  const rule = `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`;
  return [line(rows[0] ?? []), rule, ...rows.slice(1).map(line)].join('\n');
}
