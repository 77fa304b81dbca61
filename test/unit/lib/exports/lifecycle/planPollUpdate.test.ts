import { describe, expect, it } from 'vitest';
import { type PollObservation, planPollUpdate } from '../../../../../lib/exports/lifecycle/planPollUpdate';
import { ExportStatus } from '../../../../../lib/exports/record/ExportStatus';
import { IllegalTransitionError } from '../../../../../lib/exports/record/errors';
import { exportRecordFixture } from '../../../../support/exportRecordFixtures';

const options = { pollBookkeepingIntervalSeconds: 300 };
const processing = exportRecordFixture({
  status: ExportStatus.PROCESSING,
  upstreamStatus: 'Processing',
  lastPolledAt: '2025-01-01T00:10:00.000Z',
  pollCount: 4,
  version: 7,
});

function observe(overrides: Partial<PollObservation> = {}): PollObservation {
  return {
    status: ExportStatus.PROCESSING,
    upstreamStatus: 'Processing',
    observedAt: '2025-01-01T00:11:00.000Z',
    ...overrides,
  };
}

describe('planPollUpdate', () => {
  it('plans nothing when nothing changed and bookkeeping is not due', () => {
    // Act
    const plan = planPollUpdate(processing, observe(), options);

    // Assess
    expect(plan).toEqual({ kind: 'unchanged' });
  });

  it('plans bookkeeping only once the interval has passed since lastPolledAt', () => {
    // Act
    const plan = planPollUpdate(processing, observe({ observedAt: '2025-01-01T00:15:00.000Z' }), options);

    // Assess
    expect(plan).toEqual({
      kind: 'bookkeeping',
      to: ExportStatus.PROCESSING,
      changes: { lastPolledAt: '2025-01-01T00:15:00.000Z', pollCount: 5 },
    });
  });

  it('plans bookkeeping on every poll with an interval of 0', () => {
    // Act
    const plan = planPollUpdate(processing, observe(), { pollBookkeepingIntervalSeconds: 0 });

    // Assess
    expect(plan.kind).toBe('bookkeeping');
  });

  it('plans bookkeeping for a record never polled', () => {
    // Prepare
    const neverPolled = exportRecordFixture({
      status: ExportStatus.PROCESSING,
      upstreamStatus: 'Processing',
    });

    // Act
    const plan = planPollUpdate(neverPolled, observe(), options);

    // Assess
    expect(plan.kind).toBe('bookkeeping');
  });

  it('plans an update when only the raw upstream status changed', () => {
    // Act
    const plan = planPollUpdate(processing, observe({ upstreamStatus: 'Queued' }), options);

    // Assess
    expect(plan).toEqual({
      kind: 'update',
      to: ExportStatus.PROCESSING,
      changes: { upstreamStatus: 'Queued', lastPolledAt: '2025-01-01T00:11:00.000Z', pollCount: 5 },
    });
  });

  it('plans completion with links and completedAt', () => {
    // Act
    const plan = planPollUpdate(
      processing,
      observe({ status: ExportStatus.COMPLETED, upstreamStatus: 'Done', links: ['https://files/a.csv.zip'] }),
      options,
    );

    // Assess
    expect(plan).toEqual({
      kind: 'update',
      to: ExportStatus.COMPLETED,
      changes: {
        upstreamStatus: 'Done',
        links: ['https://files/a.csv.zip'],
        completedAt: '2025-01-01T00:11:00.000Z',
        // The last poll that saw it running: the upstream finished it in between.
        processingSeenAt: '2025-01-01T00:10:00.000Z',
        lastPolledAt: '2025-01-01T00:11:00.000Z',
        pollCount: 5,
      },
    });
  });

  it('records the failure reason when the export failed', () => {
    // Act
    const plan = planPollUpdate(
      processing,
      observe({ status: ExportStatus.FAILED, upstreamStatus: 'Failed', failureReason: 'upstream said so' }),
      options,
    );

    // Assess
    expect(plan).toMatchObject({
      kind: 'update',
      to: ExportStatus.FAILED,
      changes: { failureReason: 'upstream said so' },
    });
  });

  it('drops the reason a deadline abort wrote when the export completed before the abort took', () => {
    // Prepare
    const aborting = {
      ...processing,
      status: ExportStatus.ABORTING,
      failureReason: 'polling deadline passed',
    };

    // Act
    const plan = planPollUpdate(
      aborting,
      observe({ status: ExportStatus.COMPLETED, upstreamStatus: 'Done', links: ['https://x/1.csv'] }),
      options,
    );

    // Assess
    expect(plan).toMatchObject({ kind: 'update', to: ExportStatus.COMPLETED, remove: ['failureReason'] });
    expect(
      planPollUpdate(processing, observe({ status: ExportStatus.COMPLETED }), options),
    ).not.toHaveProperty('remove');
  });

  it('keeps an aborting export aborting while the upstream still says processing', () => {
    // Prepare
    const aborting = { ...processing, status: ExportStatus.ABORTING };

    // Act
    const plan = planPollUpdate(aborting, observe(), options);

    // Assess
    expect(plan).toEqual({ kind: 'unchanged' });
  });

  it('plans nothing for a terminal record that is observed in the same state', () => {
    // Prepare
    const completed = { ...processing, status: ExportStatus.COMPLETED, links: ['https://files/a.csv.zip'] };

    // Act
    const plan = planPollUpdate(
      completed,
      observe({
        status: ExportStatus.COMPLETED,
        upstreamStatus: 'Done',
        links: ['https://files/other.csv.zip'],
      }),
      options,
    );

    // Assess
    expect(plan).toEqual({ kind: 'unchanged' });
  });

  it('refuses to move a terminal record and names the current record', () => {
    // Prepare
    const aborted = { ...processing, status: ExportStatus.ABORTED };

    // Act
    const act = () => planPollUpdate(aborted, observe({ status: ExportStatus.COMPLETED }), options);

    // Assess
    expect(act).toThrow(IllegalTransitionError);
    expect(act).toThrow(expect.objectContaining({ from: 'ABORTED', to: 'COMPLETED', current: aborted }));
  });
});
