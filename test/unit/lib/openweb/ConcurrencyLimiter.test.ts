import { describe, expect, it } from 'vitest';
import { ConcurrencyLimiter } from '../../../../lib/openweb/ConcurrencyLimiter';
import { settle } from './support/ManualClock';

/** A task that runs until the test finishes it. */
function heldTask(log: string[], name: string) {
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return {
    run: async () => {
      log.push(`start ${name}`);
      await done;
      log.push(`end ${name}`);
      return name;
    },
    finish: () => finish(),
  };
}

describe('ConcurrencyLimiter', () => {
  it('runs at most maxConcurrent tasks at once and starts the others in arrival order', async () => {
    // Prepare
    const limiter = new ConcurrencyLimiter(2);
    const log: string[] = [];
    const tasks = ['a', 'b', 'c', 'd'].map((name) => heldTask(log, name));

    // Act
    const results = tasks.map((task) => limiter.run(task.run));
    await settle();
    const startedFirst = [...log];
    const countsWhileFull = { active: limiter.active, waiting: limiter.waiting };
    tasks[1]?.finish();
    await settle();
    const startedAfterOneEnded = log.filter((line) => line.startsWith('start'));
    for (const task of tasks) task.finish();
    const values = await Promise.all(results);

    // Assess
    expect(startedFirst).toEqual(['start a', 'start b']);
    expect(countsWhileFull).toEqual({ active: 2, waiting: 2 });
    expect(startedAfterOneEnded).toEqual(['start a', 'start b', 'start c']);
    expect(values).toEqual(['a', 'b', 'c', 'd']);
    expect({ active: limiter.active, waiting: limiter.waiting }).toEqual({ active: 0, waiting: 0 });
  });

  it('never lets more than maxConcurrent run among many tasks of different lengths', async () => {
    // Prepare
    const limiter = new ConcurrencyLimiter(3);
    let running = 0;
    let mostRunning = 0;
    const task = async (turns: number) => {
      running += 1;
      mostRunning = Math.max(mostRunning, running);
      for (let turn = 0; turn < turns; turn++) await new Promise((resolve) => setImmediate(resolve));
      running -= 1;
      return turns;
    };

    // Act
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, index) => limiter.run(() => task(index % 7))),
    );

    // Assess
    expect(mostRunning).toBe(3);
    expect(results).toHaveLength(40);
    expect(limiter.active).toBe(0);
  });

  it('gives the permit back when a task fails, and passes the failure on', async () => {
    // Prepare
    const limiter = new ConcurrencyLimiter(1);
    const failure = new Error('task failed');

    // Act
    const failed = limiter.run(async () => {
      throw failure;
    });
    const next = limiter.run(async () => 'next ran');

    // Assess
    await expect(failed).rejects.toBe(failure);
    await expect(next).resolves.toBe('next ran');
    expect(limiter.active).toBe(0);
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses maxConcurrent %s', (maxConcurrent) => {
    // Act / Assess
    expect(() => new ConcurrencyLimiter(maxConcurrent)).toThrow(RangeError);
  });
});
