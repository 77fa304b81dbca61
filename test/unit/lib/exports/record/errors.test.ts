import { describe, expect, it } from 'vitest';
import { ProblemType } from '../../../../../lib/errors/problems';
import {
  ExportAlreadyExistsError,
  ExportAlreadyFinishedError,
  ExportNotFoundError,
  IdempotencyConflictError,
  IdempotencyKeyReusedError,
  IllegalTransitionError,
  InvalidPaginationTokenError,
  TransitionConflictError,
} from '../../../../../lib/exports/record/errors';
import { problemForError } from '../../../../../lib/http/problemForError';
import { exportRecordFixture, idempotencyRecordFixture } from '../../../../support/exportRecordFixtures';

describe('record errors', () => {
  it('an export already finished tells the caller which export and how it ended', () => {
    // Prepare
    const current = exportRecordFixture({ status: 'FAILED' });

    // Act
    const error = new ExportAlreadyFinishedError(current);

    // Assess
    expect(error.current).toBe(current);
    expect(error.problem).toEqual({
      type: ProblemType.EXPORT_ALREADY_FINISHED,
      exportId: current.exportId,
      exportStatus: 'FAILED',
    });
    expect(problemForError(error)?.status).toBe(409);
  });

  it('an illegal transition and a lost race keep what was asked and what was found, and read as a concurrent change', () => {
    // Prepare
    const current = exportRecordFixture({ status: 'PROCESSING', version: 4 });

    // Act
    const illegal = new IllegalTransitionError({ from: 'COMPLETED', to: 'ABORTING', exportId: 'ex_1' });
    const lost = new TransitionConflictError({
      current,
      to: 'ABORTING',
      expectedFrom: ['REQUESTED', 'PROCESSING'],
      expectedVersion: 3,
    });
    const lostAnyVersion = new TransitionConflictError({
      current,
      to: 'ABORTING',
      expectedFrom: ['REQUESTED'],
    });

    // Assess
    expect([illegal.from, illegal.to, illegal.exportId, illegal.current]).toEqual([
      'COMPLETED',
      'ABORTING',
      'ex_1',
      undefined,
    ]);
    expect(illegal.message).toBe('Export ex_1 cannot go from COMPLETED to ABORTING');
    expect(lost.expectedVersion).toBe(3);
    expect(lost.message).toBe(
      `Export ${current.exportId} is PROCESSING at version 4, expected REQUESTED|PROCESSING at version 3`,
    );
    expect(lostAnyVersion.message).toMatch(/expected REQUESTED$/);
    for (const error of [illegal, lost]) {
      expect(error.problem).toEqual({ type: ProblemType.EXPORT_CHANGED_CONCURRENTLY });
    }
  });

  it('a missing export is a bare 404, one that already exists is no answer of its own', () => {
    // Act
    const missing = new ExportNotFoundError('sp_abc', 'ex_1');
    const existing = new ExportAlreadyExistsError('sp_abc', 'ex_1', undefined);

    // Assess
    expect([missing.spotId, missing.exportId]).toEqual(['sp_abc', 'ex_1']);
    expect(missing.problem).toEqual({ type: ProblemType.EXPORT_NOT_FOUND });
    expect(existing.existing).toBeUndefined();
    expect(existing.problem).toBeUndefined();
  });

  it('a malformed page token is a 400 naming query.nextToken', () => {
    // Act
    const rendered = problemForError(new InvalidPaginationTokenError());

    // Assess
    expect(rendered?.status).toBe(400);
    expect(rendered?.errors).toEqual([
      { field: 'query.nextToken', message: 'is not a token of this listing' },
    ]);
  });

  it('a repeated key answers with the export it started; a key reused for another request is refused', () => {
    // Prepare
    const existing = idempotencyRecordFixture({ spotId: 'sp_abc', exportId: 'ex_first' });

    // Act
    const repeat = new IdempotencyConflictError(existing);
    const reused = new IdempotencyKeyReusedError(existing);

    // Assess
    expect(repeat.existing.exportId).toBe('ex_first');
    expect(repeat.problem).toBeUndefined();
    expect(reused.problem).toEqual({ type: ProblemType.IDEMPOTENCY_KEY_REUSED });
    expect(reused.message).not.toContain('ex_first');
  });
});
