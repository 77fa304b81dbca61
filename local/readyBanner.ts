import { CLI_NAME, DEFAULT_LOCAL_API_URL, DEFAULT_LOCAL_DATA_PATH } from '../lib/settings/localRuntimeLayout';
import type { LocalRuntime } from './startLocalRuntime';

export interface ReadyBannerInput {
  runtime: Pick<LocalRuntime, 'apiUrl' | 'simulatorUrl' | 'dataDir' | 'spots' | 'schedules'>;
  timeScale: number;
  secretsFile: string;
  startupMs: number;
  /** Epoch ms; the example exports yesterday (UTC). */
  nowMs: number;
}

const MS_PER_DAY = 24 * 60 * 60 * 1000;
const MS_PER_SECOND = 1000;

/** What `npm start` prints once everything listens: where things are and how to try them. */
export function readyBanner(input: ReadyBannerInput): string[] {
  const { runtime } = input;
  const today = Math.floor(input.nowMs / MS_PER_DAY) * MS_PER_DAY;
  const day = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const spot = runtime.spots.includes('sp_demo') ? 'sp_demo' : (runtime.spots[0] ?? 'sp_…');
  const api = runtime.apiUrl;
  const cliApi = api === DEFAULT_LOCAL_API_URL ? '' : ` --api ${api}`;
  const width = Math.max(0, ...runtime.schedules.map((schedule) => schedule.name.length));
  return [
    `openweb-exports local runtime ready at ${api} (started in ${(input.startupMs / MS_PER_SECOND).toFixed(1)} s)`,
    `  API        ${api}: loopback only, NO authentication (local mode); described at ${api}/openapi.json`,
    runtime.simulatorUrl === undefined
      ? `  upstream   OpenWeb at the configured OPENWEB_*_BASE_URL (time scale ${input.timeScale})`
      : `  upstream   OpenWeb simulator at ${runtime.simulatorUrl} (time scale ${input.timeScale})`,
    `  spots      ${runtime.spots.join(', ') || 'none'} (keys from ${input.secretsFile})`,
    ...runtime.schedules.map(
      (schedule, index) =>
        `${index === 0 ? '  schedules  ' : '             '}${schedule.name.padEnd(width)}  ${schedule.expression} → ` +
        `${schedule.localTiming ?? `fired by hand only: ${schedule.notRunReason}`}`,
    ),
    `             list: curl -s ${api}/_local/schedules · run one now: curl -s -X POST ${api}/_local/schedules/<name>/fire`,
    `  events     curl -s ${api}/_local/events (what EventBridge would carry, since this start) · metrics: curl -s ${api}/_local/metrics`,
    `  index      curl -s ${api}/ (version, routes, docs) · health: curl -s ${api}/health`,
    `  data       ${runtime.dataDir ?? 'in memory: nothing is kept after Ctrl-C'}`,
    '  try',
    `    curl -s -X POST ${api}/exports -H 'x-spot-id: ${spot}' -H 'content-type: application/json' \\`,
    `      -d '{"from":"${day(today - MS_PER_DAY)}","until":"${day(today)}"}'`,
    `    ${CLI_NAME} watch <exportId> --spot ${spot}${cliApi}`,
    ...(runtime.dataDir === undefined
      ? []
      : [
          `    ${CLI_NAME} query "select count(*) from comments"${queryDataDir(runtime.dataDir)}   # once archived`,
        ]),
    `    ${CLI_NAME} fleet${cliApi}   # every spot at a glance, worst first`,
    `    ${CLI_NAME} report --out fleet.html${cliApi}   # the fleet as one HTML page`,
    '  Ctrl-C stops.',
  ];
}

/** The `--data-dir` the query command needs to find this runtime's archive: none for the default. */
function queryDataDir(dataDir: string): string {
  return dataDir === DEFAULT_LOCAL_DATA_PATH ? '' : ` --data-dir ${dataDir}`;
}
