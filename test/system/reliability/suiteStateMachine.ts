import type { ExtractedStateMachine } from '../../../infra/extractStateMachine';
import { loadStateMachine } from '../../../local/cachedStateMachine';
import { LOCAL_PROJECT_ROOT } from '../../../local/projectRoot';

let loading: Promise<ExtractedStateMachine> | undefined;

/**
 * The polling state machine as the stack synthesizes it (default stack config), loaded once
 * per run: synthesis takes seconds, so the local runtime's cache serves it when it can.
 */
export function suiteStateMachine(): Promise<ExtractedStateMachine> {
  loading ??= loadStateMachine({}, { projectRoot: LOCAL_PROJECT_ROOT }).then(
    ({ stateMachine }) => stateMachine,
  );
  return loading;
}
