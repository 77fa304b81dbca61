import type { Closer } from './closers';
import { LocalRuntimeInUseError } from './errors';
import { LOCAL_API_HOST } from './http/LocalHttpApi';
import { isPortInUse, lockDataDir } from './instanceGuard';
import type { LocalRuntimeSettings } from './localRuntimeSettings';

export function apiPortInUse(port: number): string {
  return `port ${port} is in use — set PORT to a free port (PORT=0 picks one)`;
}

export function simulatorPortInUse(port: number): string {
  return `port ${port} (the OpenWeb simulator) is in use — set SIMULATOR_PORT to a free port (0 picks one)`;
}

/**
 * Takes the data folder (released last, on stop) and checks the ports are free; one line per
 * conflict, naming the setting to change. Nothing of another runtime is touched.
 * @throws LocalRuntimeInUseError
 */
export async function claimPortsAndDataDir(settings: LocalRuntimeSettings, closers: Closer[]): Promise<void> {
  const problems: string[] = [];
  if (settings.dataDir !== undefined) {
    const lock = lockDataDir(settings.dataDir);
    if (lock.kind === 'acquired') closers.push(async () => lock.release());
    else {
      problems.push(
        `the data folder ${settings.dataDir} is in use by another npm start (pid ${lock.pid}) — ` +
          'set LOCAL_DATA_DIR to another folder (or to memory)',
      );
    }
  }
  if (await isPortInUse(settings.apiPort, LOCAL_API_HOST)) problems.push(apiPortInUse(settings.apiPort));
  const { upstream } = settings;
  if (upstream.kind === 'simulator' && (await isPortInUse(upstream.port, LOCAL_API_HOST))) {
    problems.push(simulatorPortInUse(upstream.port));
  }
  if (problems.length > 0) throw new LocalRuntimeInUseError(problems);
}
