import type { PollingWorkflows } from '../../../lib/exports/workflow/ports';
import type { PollingWorkflowInput } from '../../../lib/exports/workflow/workflowContract';
import { LocalPollingWorkflows } from '../../../local/LocalPollingWorkflows';
import { invokeLocalHandler } from '../../../local/localHandlers';
import type { ScenarioContainer, ScenarioWorkflows } from './FaultScenario';

/**
 * One generation of the runtime: its containers and its workflow runner. Stepped workflows
 * are only recorded here (the scenario polls them); local ones run on their own.
 */
export class ScenarioRuntime {
  readonly workflows: PollingWorkflows;
  readonly running = new Map<string, PollingWorkflowInput>();
  readonly main: ScenarioContainer;
  readonly #local: LocalPollingWorkflows | undefined;

  constructor(kind: ScenarioWorkflows, makeContainer: (workflows: PollingWorkflows) => ScenarioContainer) {
    const running = this.running;
    let main: ScenarioContainer | undefined;
    if (kind.kind === 'local') {
      this.#local = new LocalPollingWorkflows({
        stateMachine: kind.stateMachine,
        timeScale: kind.timeScale,
        // Late-bound: the handlers are built around the runner they start workflows on.
        invoke: (handler, event) => invokeLocalHandler((main as ScenarioContainer).handlers, handler, event),
        onExecutionEnd: (name) => running.delete(name),
      });
    }
    const local = this.#local;
    const known = new Set<string>();
    this.workflows = {
      async start(executionName, input) {
        // Execution names are unique, as in Step Functions: a known name starts nothing.
        if (known.has(executionName)) return;
        known.add(executionName);
        running.set(executionName, input);
        await local?.start(executionName, input);
      },
      async stop(executionName) {
        running.delete(executionName);
        await local?.stop(executionName);
      },
      async isRunning(executionName) {
        return running.has(executionName);
      },
    };
    main = makeContainer(this.workflows);
    this.main = main;
  }

  async dropWorkflows(): Promise<void> {
    this.running.clear();
    await this.#local?.stopAll();
  }

  async waitForWorkflows(timeoutMs: number): Promise<boolean> {
    const local = this.#local;
    if (local === undefined) return this.running.size === 0;
    const all = Promise.all([...this.running.keys()].map((name) => local.whenFinished(name)));
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const outcome = await Promise.race([all, timedOut]);
    clearTimeout(timer);
    return outcome !== 'timeout';
  }
}
