import { gunzipSync } from 'node:zlib';
import { ArchiveUserEraser } from '../../../lib/archive/ArchiveUserEraser';
import { type ErasureRecord, ErasureStatus } from '../../../lib/exports/erasure/ErasureRecord';
import { type ErasureDependencies, runErasure } from '../../../lib/exports/erasure/runErasure';
import { ArchiveStatus } from '../../../lib/exports/record/ExportArchive';
import { HandlerNames } from '../../../lib/http/routeTable';
import { S3ArchiveObjects } from '../../../lib/s3/S3ArchiveObjects';
import { S3ArchiveWriter } from '../../../lib/s3/S3ArchiveWriter';
import { DynamoDbArchiveRecords } from '../../../lib/store/DynamoDbArchiveRecords';
import { DynamoDbErasureStore } from '../../../lib/store/DynamoDbErasureStore';
import { apiEvent, parseResponse } from '../../support/apiGatewayEvents';
import { type CrashPlacement, IoStepCrasher } from '../../support/IoStepCrasher';
import { parseCsv } from '../../support/parseCsv';
import { archiveCompletedExports } from './archiveSteps';
import { API_CALLER_MAX_ATTEMPTS, API_CALLER_RETRY_PAUSE_SECONDS } from './callers';
import { type FaultScenario, SCENARIO_SPOTS } from './FaultScenario';

/** How long a run holds an erasure, as the deployment's task would: another run waits it out. */
export const SUITE_ERASURE_LEASE_SECONDS = 120;
/** Rounds of "archive what completed, run every RUNNING erasure, let leases lapse" before giving up. */
export const MAX_ERASURE_ROUNDS = 6;
const END_OF_TIME_ISO = '9999-12-31T23:59:59.999Z';
const RUNNING_SAMPLE = 100;
const MS_PER_SECOND = 1000;

/** Which run of the scenario holds an erasure: a new one per attempt, as a new task would be. */
let runSequence = 0;

/**
 * `POST /spots/{spotId}/erasures` through the API handler, as a client asks: an answer of 5xx is
 * asked again (the same user is the same erasure), up to the API caller's attempts, pausing as it
 * does. The last status answered.
 */
export async function requestErasureViaApi(
  scenario: FaultScenario,
  spotId: string,
  userId: string,
): Promise<number> {
  const event = apiEvent({
    method: 'POST',
    route: '/spots/{spotId}/erasures',
    pathParameters: { spotId },
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userId }),
  });
  let statusCode = 0;
  for (let attempt = 1; attempt <= API_CALLER_MAX_ATTEMPTS; attempt++) {
    statusCode = parseResponse(await scenario.main.invoke(HandlerNames.ERASURES, event)).statusCode;
    if (statusCode < 500) return statusCode;
    scenario.clock.advance(API_CALLER_RETRY_PAUSE_SECONDS * attempt * MS_PER_SECOND);
  }
  return statusCode;
}

/**
 * Erasures of `perSpot` users of each spot whose rows an archived export holds (the first users of
 * the spot's first archived files, in the order the seeded simulator wrote them), asked through the API.
 */
export async function requestErasuresOfArchivedUsers(
  scenario: FaultScenario,
  perSpot: number,
): Promise<void> {
  const storage = scenario.archiveStorage;
  if (storage === undefined) return;
  const objects = new S3ArchiveObjects({ client: storage.client, bucketName: storage.bucketName });
  const records = await scenario.records();
  for (const spotId of SCENARIO_SPOTS) {
    const users = new Set<string>();
    for (const record of records) {
      if (record.spotId !== spotId || record.archive?.status !== ArchiveStatus.ARCHIVED) continue;
      for (const file of record.archive.files) {
        const text = gunzipSync(await objects.read(file.key)).toString('utf8');
        const [header = [], ...rows] = parseCsv(text, record.request.delimiter ?? ',');
        const column = header.indexOf('user_id');
        for (const row of rows) if (column >= 0 && row[column]) users.add(row[column] as string);
        if (users.size >= perSpot) break;
      }
      if (users.size >= perSpot) break;
    }
    for (const userId of [...users].slice(0, perSpot)) await requestErasureViaApi(scenario, spotId, userId);
  }
}

/** Every erasure of every scenario spot, newest first per spot. */
export async function erasuresOf(scenario: FaultScenario): Promise<ErasureRecord[]> {
  const erasures = erasureStore(scenario);
  const all: ErasureRecord[] = [];
  for (const spotId of SCENARIO_SPOTS) {
    let nextToken: string | undefined;
    do {
      const page = await erasures.listForSpot(spotId, {
        limit: RUNNING_SAMPLE,
        ...(nextToken !== undefined && { nextToken }),
      });
      all.push(...page.items);
      nextToken = page.nextToken;
    } while (nextToken !== undefined);
  }
  return all;
}

/**
 * One run of the erasure, as the erasure task would run it, its I/O (the records, the exports'
 * list, the bucket's reads, writes and deletes, the archive's records) meeting the scenario's AWS
 * faults; with `crash`, the process dies at that I/O step (before or after the call) and the run
 * is gone with its lease held. Resolves to the run's outcome, or `crashed` / `failed` (an error
 * the run could not get past, e.g. S3 still refusing after the SDK's retries: the next run resumes it).
 */
export async function runErasureOnce(
  scenario: FaultScenario,
  erasure: Pick<ErasureRecord, 'spotId' | 'erasureId'>,
  crash?: { atStep: number; placement: CrashPlacement },
): Promise<'finished' | 'busy' | 'waiting' | 'more' | 'crashed' | 'failed'> {
  const crasher = crash === undefined ? undefined : new IoStepCrasher(crash.atStep, crash.placement);
  const deps = erasureDependencies(scenario, crasher);
  const run = () =>
    runErasure(deps, {
      spotId: erasure.spotId,
      erasureId: erasure.erasureId,
      runId: `suite-run-${++runSequence}`,
      leaseSeconds: SUITE_ERASURE_LEASE_SECONDS,
    });
  try {
    const { outcome } = await (scenario.aws === undefined ? run() : scenario.aws.within(run));
    return outcome;
  } catch {
    if (crasher?.crashedAt !== undefined) {
      scenario.countFault('erasureCrash');
      return 'crashed';
    }
    return 'failed';
  }
}

/**
 * Brings every erasure to its end once the storm is over, as the deployment's task and the
 * reconciler would: rounds of archiving what completed (an erasure waits for an archive that
 * began before its user was suppressed), running each RUNNING erasure, and letting a dead run's
 * lease lapse. Whatever is still RUNNING afterwards is left for the invariants to report.
 */
export async function finishErasures(scenario: FaultScenario): Promise<void> {
  if (scenario.archiveStorage === undefined) return;
  for (let round = 0; round < MAX_ERASURE_ROUNDS; round++) {
    const running = await erasureStore(scenario).findRunning(END_OF_TIME_ISO, RUNNING_SAMPLE);
    if (running.length === 0) return;
    await archiveCompletedExports(scenario);
    for (const erasure of running) await runErasureOnce(scenario, erasure);
    scenario.clock.advance((SUITE_ERASURE_LEASE_SECONDS + 1) * MS_PER_SECOND);
  }
}

/** The erasures RUNNING now, any spot. */
export async function runningErasures(scenario: FaultScenario): Promise<ErasureRecord[]> {
  const running = await erasureStore(scenario).findRunning(END_OF_TIME_ISO, RUNNING_SAMPLE);
  return running.filter((erasure) => erasure.status === ErasureStatus.RUNNING);
}

function erasureStore(scenario: FaultScenario): DynamoDbErasureStore {
  const { documentClient, tableName } = scenario.harness.table;
  return new DynamoDbErasureStore({ client: documentClient, tableName });
}

/** The erasure task's dependencies on the scenario's table and bucket; a doomed process's through `crasher`. */
function erasureDependencies(
  scenario: FaultScenario,
  crasher: IoStepCrasher | undefined,
): ErasureDependencies {
  const storage = scenario.archiveStorage;
  if (storage === undefined) throw new Error('erasures need the scenario to archive');
  const { documentClient, tableName } = scenario.harness.table;
  const io = <T extends object>(name: string, port: T): T => crasher?.port(name, port) ?? port;
  return {
    erasures: io('erasures', erasureStore(scenario)),
    store: io('store', scenario.harness.store),
    eraser: new ArchiveUserEraser({
      objects: io(
        'objects',
        new S3ArchiveObjects({ client: storage.client, bucketName: storage.bucketName }),
      ),
      writer: io('writer', new S3ArchiveWriter({ client: storage.client, bucketName: storage.bucketName })),
      revisions: io('revisions', new DynamoDbArchiveRecords({ client: documentClient, tableName })),
    }),
    // The suite's archive writes no table (raw files only): only the files are checked.
    erasureEvents: { publishErasureCompleted: async () => {} },
    now: scenario.clock.now,
  };
}
