import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AWS_FAULT_GROUP_PREFIX, awsFaultScenarios } from './awsFaultScenarios';
import { crashSweeps, MAX_CRASH_STEPS } from './crashSweeps';
import { erasureCrashSweeps } from './erasureCrashSweeps';
import { ReliabilityReport } from './ReliabilityReport';
import type { ReliabilityScenario } from './ReliabilityScenario';
import { raceScenarios } from './raceScenarios';
import { isFullRun, reliabilitySeeds } from './reliabilitySeeds';
import { runScenario } from './runScenario';
import { suiteStateMachine } from './suiteStateMachine';
import { upstreamFaultScenarios } from './upstreamFaultScenarios';
import { workflowScenarios } from './workflowScenarios';

/** Far above a scenario's usual second or two: a busy box must not fail one on time alone. */
const SCENARIO_TIMEOUT_MS = 60_000;
/** A sweep runs one scenario per I/O step of its use case. */
const CRASH_SWEEP_TIMEOUT_MS = 120_000;
/** Synthesizing the stack takes seconds when the state machine is not cached yet. */
const STATE_MACHINE_LOAD_TIMEOUT_MS = 120_000;

const seeds = reliabilitySeeds();
const report = new ReliabilityReport();
/** Under transient upstream faults only, this share of exports must complete (the rest aborted by the scenario). */
const MIN_GOODPUT_UNDER_UPSTREAM_FAULTS = 0.99;
/** The same target while AWS refuses a share of the table's, Step Functions' and EventBridge's calls. */
const MIN_GOODPUT_UNDER_AWS_FAULTS = 0.99;

function scenarioTests(scenarios: ReliabilityScenario[]): void {
  for (const scenario of scenarios) {
    it(
      scenario.name,
      async () => {
        // Act
        const violations = await runScenario(scenario, report);

        // Assess
        expect(violations).toEqual([]);
      },
      SCENARIO_TIMEOUT_MS,
    );
  }
}

describe('the system under faults, checked against its invariants', () => {
  // What ran, also when a filter ran one scenario; the checks are the tests' own.
  afterAll(() => {
    console.log(report.format(`Reliability summary (${seeds.length} seed(s) per seeded scenario)`));
  });

  describe('upstream faults', () => {
    const scenarios = upstreamFaultScenarios(seeds);
    scenarioTests(scenarios);

    it(
      'summary: goodput under upstream faults stays at 99 % or more',
      async () => {
        // Prepare: the scenarios a filter left out (or all of them, run alone) run here.
        const violations: string[] = [];
        for (const scenario of scenarios.filter(({ name }) => !report.scenarioNames.has(name))) {
          violations.push(...(await runScenario(scenario, report)));
        }

        // Act: the population the target is about, every export that met transient upstream faults only.
        const goodput = report.goodputOfGroups('upstream: ');

        // Assess
        expect(violations).toEqual([]);
        expect(scenarios.every(({ name }) => report.scenarioNames.has(name))).toBe(true);
        expect(goodput, 'goodput under upstream faults').toBeGreaterThanOrEqual(
          MIN_GOODPUT_UNDER_UPSTREAM_FAULTS,
        );
      },
      scenarios.length * SCENARIO_TIMEOUT_MS,
    );
  });

  describe('AWS pushing back (throttling, refused entries) beyond the SDK retries', () => {
    const scenarios = awsFaultScenarios(seeds);
    scenarioTests(scenarios);

    it(
      'summary: goodput while AWS pushes back stays at 99 % or more',
      async () => {
        // Prepare: the scenarios a filter left out (or all of them, run alone) run here.
        const violations: string[] = [];
        for (const scenario of scenarios.filter(({ name }) => !report.scenarioNames.has(name))) {
          violations.push(...(await runScenario(scenario, report)));
        }

        // Act
        const goodput = report.goodputOfGroups(AWS_FAULT_GROUP_PREFIX);

        // Assess
        expect(violations).toEqual([]);
        expect(goodput, 'goodput while AWS pushes back').toBeGreaterThanOrEqual(MIN_GOODPUT_UNDER_AWS_FAULTS);
      },
      scenarios.length * SCENARIO_TIMEOUT_MS,
    );
  });

  describe('process crashes between I/O steps', () => {
    for (const sweep of [...crashSweeps(isFullRun()), ...erasureCrashSweeps(isFullRun())]) {
      it(
        sweep.name,
        async () => {
          // Act: crash at step 1, 2, 3, … until the call completes before the crash point.
          const violations: string[] = [];
          const reached = { value: true };
          for (let atStep = 1; atStep <= MAX_CRASH_STEPS && reached.value; atStep++) {
            violations.push(...(await runScenario(sweep.scenarioAt(atStep, reached), report)));
          }

          // Assess
          expect(reached.value).toBe(false);
          expect(violations).toEqual([]);
        },
        CRASH_SWEEP_TIMEOUT_MS,
      );
    }
  });

  describe('duplicate deliveries, races and restarts', () => scenarioTests(raceScenarios(seeds)));

  describe('the synthesized polling workflow, run locally in real time', () => {
    beforeAll(async () => {
      await suiteStateMachine();
    }, STATE_MACHINE_LOAD_TIMEOUT_MS);

    scenarioTests(workflowScenarios(seeds));
  });
});
