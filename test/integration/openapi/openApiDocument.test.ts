import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { ProblemType } from '../../../lib/errors/problems';
import { totalOfExports } from '../../../lib/exports/cost/totalOfExports';
import { EXPORT_STATUSES } from '../../../lib/exports/record/ExportStatus';
import { newExportId } from '../../../lib/exports/record/exportId';
import { exportView } from '../../../lib/http/exportView';
import { ROUTES } from '../../../lib/http/routeTable';
import { AWS_PRICE_TABLE } from '../../../lib/settings/settingsTable';
import {
  OPENAPI_DOCUMENT_FILE,
  openApiDocument,
  openApiDocumentText,
  PROJECT_ROOT,
} from '../../../openapi/openApiDocument';
import { OpenApiResponseValidator } from '../../support/openApiResponses';

const committedText = () => readFileSync(join(PROJECT_ROOT, OPENAPI_DOCUMENT_FILE), 'utf8');

describe('the OpenAPI document', () => {
  it(`is committed as generated: run npm run openapi after changing a route or schema`, () => {
    // Act
    const fresh = openApiDocumentText();

    // Assess
    expect(committedText()).toBe(fresh);
  });

  it('is a valid OpenAPI 3.1 document whose references all resolve', async () => {
    // Prepare
    const validator = new Validator();

    // Act
    const result = await validator.validate(JSON.parse(committedText()));

    // Assess
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(() => validator.resolveRefs()).not.toThrow();
  });

  it('describes every route of the route table, and nothing else', () => {
    // Act
    const paths = openApiDocument().paths as Record<string, Record<string, unknown>>;
    const described = Object.entries(paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((key) => key !== 'parameters')
        .map((method) => `${method.toUpperCase()} ${path}`),
    );

    // Assess
    expect(described.sort()).toEqual(ROUTES.map((route) => `${route.method} ${route.path}`).sort());
  });

  it('names every kind of problem the API answers with under some operation', () => {
    // Act
    const text = JSON.stringify(openApiDocument().paths);

    // Assess
    for (const type of Object.values(ProblemType)) expect(text).toContain(`"/problems/${type}"`);
  });

  it('describes both auth modes as security schemes', () => {
    // Act
    const document = openApiDocument();

    // Assess
    const schemes = (document.components as { securitySchemes: Record<string, Record<string, unknown>> })
      .securitySchemes;
    expect(schemes.sigv4).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
    expect(schemes.jwt).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    expect(document.security).toEqual([{ sigv4: [] }, { jwt: [] }]);
  });

  describe('held against responses', () => {
    const validator = OpenApiResponseValidator.committed();
    const view = exportView({
      spotId: 'sp_demo',
      exportId: newExportId(),
      status: 'REQUESTED',
      request: { kind: 'dateRange', from: '2026-11-20T00:00:00Z', until: '2026-11-21T00:00:00Z' },
      links: [],
      requestedAt: '2026-11-21T00:00:00.000Z',
      pollCount: 0,
      source: 'api',
      version: 1,
    });

    it('has response schemas that Ajv compiles in strict mode', () => {
      // Act
      const compiled = validator.compileAll();

      // Assess
      expect(compiled).toBeGreaterThan(ROUTES.length * 10);
    });

    it('accepts an export as the handlers render it', () => {
      // Act
      const problems = validator.problemsOf('POST', '/exports', {
        status: 202,
        headers: { 'content-type': 'application/json', location: `/exports/${view.exportId}` },
        body: view,
      });

      // Assess
      expect(problems).toEqual([]);
    });

    it('refuses an undocumented status, field, header or problem type', () => {
      // Act
      const status = validator.problemsOf('GET', `/exports/${view.exportId}`, {
        status: 418,
        headers: {},
        body: undefined,
      });
      const field = validator.problemsOf('GET', `/exports/${view.exportId}`, {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: { ...view, secret: 'x' },
      });
      const header = validator.problemsOf('GET', '/exports', {
        status: 200,
        headers: { 'content-type': 'application/json', 'x-debug': '1' },
        body: { items: [], total: totalOfExports([], AWS_PRICE_TABLE) },
      });
      const missingLocation = validator.problemsOf('POST', '/exports', {
        status: 202,
        headers: { 'content-type': 'application/json' },
        body: view,
      });
      const problemType = validator.problemsOf('GET', '/exports', {
        status: 409,
        headers: { 'content-type': 'application/problem+json' },
        body: { type: '/problems/spot-busy', title: 'Spot busy', status: 409 },
      });
      const wrongStatusMember = validator.problemsOf('GET', '/exports', {
        status: 400,
        headers: { 'content-type': 'application/problem+json' },
        body: { type: '/problems/invalid-request', title: 'Invalid request', status: 404 },
      });

      // Assess
      expect(status).toEqual([expect.stringContaining('status is not documented')]);
      expect(field.join('\n')).toContain('additionalProperty');
      expect(header).toEqual([expect.stringContaining('header x-debug is not documented')]);
      expect(missingLocation).toEqual([expect.stringContaining('required header location is missing')]);
      expect(problemType).toEqual([expect.stringContaining('status is not documented')]);
      expect(wrongStatusMember.join('\n')).toContain('/status must be equal to constant');
    });

    it('lists every export status the API shows', () => {
      // Act
      const problems = EXPORT_STATUSES.flatMap((status) =>
        validator.problemsOf('GET', '/exports', {
          status: 200,
          headers: { 'content-type': 'application/json' },
          body: { items: [{ ...view, status }], total: totalOfExports([], AWS_PRICE_TABLE) },
        }),
      );

      // Assess
      expect(problems).toEqual([]);
    });
  });
});
