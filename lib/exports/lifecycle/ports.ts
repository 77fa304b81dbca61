import type { CoverageDependencies } from '../coverage/ports';
import type { UpstreamExports } from '../upstream/UpstreamExports';

/** What creating, polling, aborting and ending an export touch. */
export interface LifecycleDependencies extends CoverageDependencies {
  upstream: UpstreamExports;
}
