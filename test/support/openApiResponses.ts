import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { matchRoute } from '../../local/http/matchRoute';
import { OPENAPI_DOCUMENT_FILE, PROJECT_ROOT } from '../../openapi/openApiDocument';

type Json = { [key: string]: unknown };

/** A response as a test received it: header names in any case, the body parsed (undefined when empty). */
export interface ReceivedResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** Headers of the HTTP transport itself, which the document does not describe. */
const TRANSPORT_HEADERS = new Set([
  'content-type',
  'content-length',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
]);
const COMPONENTS_ID = 'urn:openweb-exports:openapi-components';
const COMPONENT_REF = /^#\/components\/schemas\//;
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

interface Operation {
  method: string;
  path: string;
  responses: Record<string, Json>;
}

/** `$ref`s to `#/components/schemas/X` made absolute, so each schema compiles on its own. */
function absoluteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(absoluteRefs);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === '$ref' && typeof inner === 'string'
        ? inner.replace(COMPONENT_REF, `${COMPONENTS_ID}#/$defs/`)
        : absoluteRefs(inner),
    ]),
  );
}

/**
 * Holds responses to the committed OpenAPI document: the operation must exist, the status be
 * documented for it, the content type be one the status lists, the body match its schema (JSON
 * Schema 2020-12, Ajv in strict mode) and every header be documented and match its schema.
 */
export class OpenApiResponseValidator {
  private readonly ajv: Ajv2020;
  private readonly operations: Operation[];
  private readonly compiled = new Map<unknown, ValidateFunction>();

  constructor(readonly document: Json) {
    this.ajv = addFormats(new Ajv2020({ strict: true, allErrors: true }));
    const components = (document.components as { schemas: Json }).schemas;
    this.ajv.addSchema({ $id: COMPONENTS_ID, $defs: absoluteRefs(components) });
    this.operations = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, item]) =>
        Object.entries(item)
          .filter(([key]) => ['get', 'post', 'put', 'patch', 'delete'].includes(key))
          .map(([method, operation]) => ({
            method: method.toUpperCase(),
            path,
            responses: (operation as { responses: Record<string, Json> }).responses,
          })),
    );
  }

  /** The document as committed at the project root. */
  static committed(): OpenApiResponseValidator {
    return new OpenApiResponseValidator(
      JSON.parse(readFileSync(join(PROJECT_ROOT, OPENAPI_DOCUMENT_FILE), 'utf8')) as Json,
    );
  }

  /** Compiles every response body and header schema, so a schema Ajv refuses is found before any response is. */
  compileAll(): number {
    let count = 0;
    for (const operation of this.operations) {
      for (const response of Object.values(operation.responses)) {
        const schemas = [
          ...Object.values((response.content ?? {}) as Record<string, { schema: Json }>),
          ...Object.values((response.headers ?? {}) as Record<string, { schema: Json }>),
        ].map(({ schema }) => schema);
        for (const schema of schemas) {
          this.validatorFor(schema);
          count += 1;
        }
      }
    }
    return count;
  }

  /** Whether the document describes `method` on this concrete path (e.g. `/exports/ex_…`). */
  documents(method: string, path: string): boolean {
    return matchRoute(this.operations, method, path).kind === 'matched';
  }

  /** What is wrong with the response to `method path` by the document; empty when nothing is. */
  problemsOf(method: string, path: string, response: ReceivedResponse): string[] {
    const match = matchRoute(this.operations, method, path);
    if (match.kind !== 'matched') return [`${method} ${path} is not an operation of the document`];
    const where = `${method} ${match.route.path} → ${response.status}`;
    const documented = match.route.responses[String(response.status)];
    if (documented === undefined) return [`${where}: the status is not documented`];
    const problems: string[] = [];
    const headers = new Map(
      Object.entries(response.headers)
        .filter(([, value]) => value !== undefined)
        .map(([name, value]) => [
          name.toLowerCase(),
          Array.isArray(value) ? value.join(', ') : String(value),
        ]),
    );
    const content = (documented.content ?? {}) as Record<string, { schema: Json }>;
    const mediaType = headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
    if (response.body !== undefined || mediaType !== undefined) {
      const schema = mediaType === undefined ? undefined : content[mediaType]?.schema;
      if (schema === undefined) {
        problems.push(
          `${where}: content type ${mediaType} is not documented (${Object.keys(content).join(', ')})`,
        );
      } else {
        problems.push(...this.schemaProblems(`${where} body`, schema, response.body));
      }
    }
    const documentedHeaders = new Map(
      Object.entries((documented.headers ?? {}) as Record<string, { required?: boolean; schema: Json }>).map(
        ([name, header]) => [name.toLowerCase(), header],
      ),
    );
    for (const [name, header] of documentedHeaders) {
      const value = headers.get(name);
      if (value === undefined) {
        if (header.required) problems.push(`${where}: required header ${name} is missing`);
      } else {
        problems.push(...this.schemaProblems(`${where} header ${name}`, header.schema, value));
      }
    }
    for (const name of headers.keys()) {
      if (!TRANSPORT_HEADERS.has(name) && !documentedHeaders.has(name)) {
        problems.push(`${where}: header ${name} is not documented`);
      }
    }
    return problems;
  }

  /** Throws, listing what is wrong, unless the response is as the document says. */
  assertDocumented(method: string, path: string, response: ReceivedResponse): void {
    const problems = this.problemsOf(method, path, response);
    if (problems.length > 0) {
      throw new Error(
        `The response is not as the OpenAPI document says:\n  ${problems.join('\n  ')}\n` +
          `body: ${JSON.stringify(response.body)?.slice(0, 2000)}`,
      );
    }
  }

  private schemaProblems(where: string, schema: Json, value: unknown): string[] {
    const validate = this.validatorFor(schema);
    if (validate(value)) return [];
    return (validate.errors ?? []).map(
      (error) =>
        `${where}${error.instancePath} ${error.message ?? 'is invalid'} ${JSON.stringify(error.params)}`,
    );
  }

  private validatorFor(schema: Json): ValidateFunction {
    let validate = this.compiled.get(schema);
    if (validate === undefined) {
      validate = this.ajv.compile(absoluteRefs(schema) as Json);
      this.compiled.set(schema, validate);
    }
    return validate;
  }
}
