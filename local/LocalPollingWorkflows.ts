import './promiseWithResolvers';
import { type StateMachineDefinition as AslDefinition, StateMachine } from 'aws-local-stepfunctions';
import type { ExtractedStateMachine } from '../infra/extractStateMachine';
import type { ErasureWorkflowInput } from '../lib/exports/erasure/erasureWorkflowContract';
import type { ErasureWorkflows } from '../lib/exports/erasure/ports';
import type { PollingWorkflows } from '../lib/exports/workflow/ports';
import type { PollingWorkflowInput } from '../lib/exports/workflow/workflowContract';
import type { HandlerName } from '../lib/http/routeTable';
import { LocalRuntimeStoppingError } from './errors';
import { inputDrivenWaits, scaleDefinitionTimes } from './scaleDefinitionTimes';

/** Calls a handler the way Lambda would for a Step Functions task. */
export type InvokeHandler = (handler: HandlerName, event: unknown) => Promise<unknown>;

export type ExecutionOutcome = 'succeeded' | 'failed' | 'aborted';

/** One entry of an execution's history (state entered, exited, retried, …), with the state's input and output. */
export type WorkflowHistoryEvent =
  ReturnType<StateMachine['run']>['eventLogs'] extends AsyncGenerator<infer Event> ? Event : never;

export interface LocalPollingWorkflowsOptions {
  stateMachine: ExtractedStateMachine;
  invoke: InvokeHandler;
  /** Real seconds per deployed second for waits and retry intervals; 1 = as deployed. */
  timeScale?: number;
  /**
   * Whether the waits the execution's input and tasks name (the first poll) are real seconds
   * already: the handlers learn them from the real clock, and the local runtime scales the
   * settings they default to. Otherwise they are scaled like the definition's own waits.
   */
  inputWaitsOnRealClock?: boolean;
  onExecutionEnd?: (executionName: string, outcome: ExecutionOutcome, error?: unknown) => void;
  /** Sees every history event of every execution, e.g. to measure the states' payloads. */
  onHistoryEvent?: (executionName: string, event: WorkflowHistoryEvent) => void;
  /**
   * Awaited before an execution begins and before each task: the local runtime lets API requests
   * in flight go first, as in AWS, where the workflow's tasks run on compute of their own.
   */
  beforeWork?: () => Promise<void>;
}

interface Execution {
  abort: () => void;
  done: Promise<void>;
}

const MS_PER_SECOND = 1000;

/** What an execution starts from: the polling workflow's input or the erasure workflow's. */
export type LocalWorkflowInput = PollingWorkflowInput | ErasureWorkflowInput;

/**
 * A workflow of the stack on one machine (the polling workflow, the erasure workflow): the
 * definition the stack synthesizes, run by aws-local-stepfunctions, its Lambda tasks mapped to
 * the same handlers. Execution names are unique as in Step Functions: starting a known name
 * again does nothing.
 */
export class LocalPollingWorkflows implements PollingWorkflows, ErasureWorkflows {
  readonly #machine: StateMachine;
  readonly #taskHandlers: Record<string, HandlerName>;
  readonly #waitFields: Record<string, string>;
  readonly #timeScale: number;
  readonly #options: LocalPollingWorkflowsOptions;
  readonly #running = new Map<string, Execution>();
  // Task invocations outlive an aborted execution; stopAll waits for them before resources close.
  readonly #tasksInFlight = new Set<Promise<unknown>>();
  readonly #known = new Set<string>();
  #stopping = false;

  constructor(options: LocalPollingWorkflowsOptions) {
    const { definition, taskHandlers } = options.stateMachine;
    this.#options = options;
    this.#timeScale = options.timeScale ?? 1;
    // The deployed definition is validated as is; the scaled copy may hold fractional seconds.
    new StateMachine(definition as AslDefinition, { validationOptions: { checkArn: false } });
    this.#machine = new StateMachine(scaleDefinitionTimes(definition, this.#timeScale) as AslDefinition, {
      validationOptions: { noValidate: true },
    });
    this.#waitFields = inputDrivenWaits(definition);
    this.#taskHandlers = Object.fromEntries(
      Object.entries(definition.States).flatMap(([stateName, state]) => {
        const handler = taskHandlers[(state as { Resource?: string }).Resource ?? ''];
        return handler === undefined ? [] : [[stateName, handler]];
      }),
    );
  }

  async start(executionName: string, input: LocalWorkflowInput): Promise<void> {
    if (this.#known.has(executionName)) return;
    this.#known.add(executionName);
    // Like StartExecution, starting returns at once: the execution begins on a later turn of the
    // event loop, so a caller (an API start) does not wait for the run's setup or its first task.
    let abortRequested = false;
    let abortRun: (() => void) | undefined;
    let settle: () => void = () => {};
    const done = new Promise<void>((resolve) => {
      settle = resolve;
    });
    this.#running.set(executionName, {
      abort: () => {
        abortRequested = true;
        abortRun?.();
      },
      done,
    });
    setImmediate(async () => {
      await this.#options.beforeWork?.();
      if (abortRequested || this.#stopping) {
        this.#end(executionName, 'aborted');
        settle();
        return;
      }
      const execution = this.#run(input);
      abortRun = execution.abort;
      this.#followHistory(executionName, execution.eventLogs);
      execution.result
        .then(
          (result) => this.#end(executionName, result === null ? 'aborted' : 'succeeded'),
          (error: unknown) => this.#end(executionName, 'failed', error),
        )
        .finally(settle);
    });
  }

  #run(input: LocalWorkflowInput) {
    // Read by the runner when it reaches each Wait: a task's output (the create task's learned
    // first wait) updates it, as the deployed Wait reads the state's input at that moment.
    const waits = this.#scaledWaits(input);
    return this.#machine.run(input as unknown as Record<string, never>, {
      overrides: {
        taskResourceLocalHandlers: Object.fromEntries(
          Object.entries(this.#taskHandlers).map(([stateName, handler]) => [
            stateName,
            async (taskInput: unknown) => {
              const output = await this.#invokeTracked(handler, taskInput);
              Object.assign(waits, this.#scaledWaits(output));
              return output as never;
            },
          ]),
        ),
        waitTimeOverrides: waits,
      },
      noThrowOnAbort: true,
    });
  }

  #followHistory(executionName: string, history: AsyncGenerator<WorkflowHistoryEvent>): void {
    const { onHistoryEvent } = this.#options;
    if (onHistoryEvent === undefined) return;
    void (async () => {
      for await (const event of history) onHistoryEvent(executionName, event);
    })();
  }

  async stop(executionName: string): Promise<void> {
    this.#running.get(executionName)?.abort();
  }

  async isRunning(executionName: string): Promise<boolean> {
    return this.#running.has(executionName);
  }

  /** Stops every execution and waits for them to settle (shutdown, tests). */
  async stopAll(): Promise<void> {
    // A retry timer of an aborted execution may still fire: it must not reach a handler any more.
    this.#stopping = true;
    const executions = [...this.#running.values()];
    for (const execution of executions) execution.abort();
    await Promise.all(executions.map((execution) => execution.done));
    await Promise.allSettled([...this.#tasksInFlight]);
  }

  #invokeTracked(handler: HandlerName, taskInput: unknown): Promise<unknown> {
    if (this.#stopping) return Promise.reject(new LocalRuntimeStoppingError());
    const beforeWork = this.#options.beforeWork;
    const task =
      beforeWork === undefined
        ? this.#options.invoke(handler, taskInput)
        : beforeWork().then(() =>
            this.#stopping
              ? Promise.reject(new LocalRuntimeStoppingError())
              : this.#options.invoke(handler, taskInput),
          );
    this.#tasksInFlight.add(task);
    const forget = () => this.#tasksInFlight.delete(task);
    task.then(forget, forget);
    return task;
  }

  /** Resolves when the named execution has ended (immediately if it is not running). */
  async whenFinished(executionName: string): Promise<void> {
    await this.#running.get(executionName)?.done;
  }

  /** The scaled waits a state (execution input or task output) names; fields it lacks are left out. */
  #scaledWaits(state: unknown): Record<string, number> {
    if (typeof state !== 'object' || state === null) return {};
    const values = state as Record<string, unknown>;
    return Object.fromEntries(
      Object.entries(this.#waitFields)
        .filter(([, field]) => typeof values[field] === 'number')
        .map(([stateName, field]) => [
          stateName,
          Math.max(0, Number(values[field]) || 0) *
            MS_PER_SECOND *
            (this.#options.inputWaitsOnRealClock === true ? 1 : this.#timeScale),
        ]),
    );
  }

  #end(executionName: string, outcome: ExecutionOutcome, error?: unknown): void {
    this.#running.delete(executionName);
    this.#options.onExecutionEnd?.(executionName, outcome, error);
  }
}
