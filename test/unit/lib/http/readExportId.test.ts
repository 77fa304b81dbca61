import { describe, expect, it } from 'vitest';
import { newExportId } from '../../../../lib/exports/record/exportId';
import { readExportId } from '../../../../lib/http/readExportId';
import { apiEvent } from '../../../support/apiGatewayEvents';
import { problemOf } from '../../../support/problemOf';

describe('readExportId', () => {
  it('reads a well-formed export id from the path', () => {
    // Prepare
    const exportId = newExportId();

    // Act / Assess
    expect(readExportId(apiEvent({ route: '/exports/{exportId}', exportId }))).toBe(exportId);
  });

  it.each(['ex_short', '../etc/passwd', '', 'EX_01M6BFP5G0K6YA00CEV4EVNFYS'])(
    'answers 404, not 400, for the malformed id %j',
    (exportId) => {
      // Act
      const problem = problemOf(() => readExportId(apiEvent({ route: '/exports/{exportId}', exportId })));

      // Assess
      expect(problem).toMatchObject({ status: 404, type: 'export-not-found' });
    },
  );
});
