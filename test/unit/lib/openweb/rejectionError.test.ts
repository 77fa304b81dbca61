import { describe, expect, it } from 'vitest';
import {
  ExportConflictError,
  ExportNotAbortableError,
  InvalidExportRequestError,
  SpotForbiddenError,
  UpstreamExportNotFoundError,
  UpstreamProtocolError,
  UpstreamRequestRejectedError,
} from '../../../../lib/exports/upstream/errors';
import { OpenWebOperation } from '../../../../lib/openweb/OpenWebOperation';
import { rejectionError } from '../../../../lib/openweb/rejectionError';

const reply = (statusCode: number, message = 'nope') => ({
  statusCode,
  bodyText: JSON.stringify({ message }),
});
const create = { operation: OpenWebOperation.CREATE_EXPORT, spotId: 'sp_a' };
const status = { operation: OpenWebOperation.GET_EXPORT_STATUS, spotId: 'sp_a', exportId: 'up_1' };
const abort = { operation: OpenWebOperation.ABORT_EXPORT, spotId: 'sp_a', exportId: 'up_1' };

describe('rejectionError', () => {
  it.each([
    ['a 400 on create', reply(400), create, InvalidExportRequestError],
    ['a 422 on abort', reply(422), abort, ExportNotAbortableError],
    ['a 403', reply(403), status, SpotForbiddenError],
    ['a 404 about an export', reply(404), status, UpstreamExportNotFoundError],
    ['a 404 about no export', reply(404), create, UpstreamRequestRejectedError],
    ['a 409', reply(409), create, ExportConflictError],
    ['a 418', reply(418), create, UpstreamRequestRejectedError],
    ['a 302', reply(302), status, UpstreamProtocolError],
  ])('reads %s as its error', (_answer, answer, context, errorClass) => {
    // Act / Assess
    expect(rejectionError(answer, context)).toBeInstanceOf(errorClass);
  });

  it("keeps the upstream's message where the caller is shown it", () => {
    // Act
    const error = rejectionError(reply(400, 'from must be before until'), create);

    // Assess
    expect(error.message).toContain('from must be before until');
  });
});
