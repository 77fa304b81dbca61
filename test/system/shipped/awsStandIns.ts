import { randomUUID } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  request,
  type Server,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** One AWS call as IAM would authorize it: who signed it (access key id), the action, the resource ARN. */
export interface ObservedCall {
  accessKeyId: string;
  action: string;
  resource: string;
}

export interface AwsAccount {
  partition: string;
  region: string;
  accountId: string;
}

const LOOPBACK = '127.0.0.1';

/**
 * Small local stand-ins for the AWS services the functions call, each recording every
 * (signer, action, resource) it receives: Step Functions, EventBridge, Secrets Manager, Glue and Athena
 * speak the AWS JSON protocol on one server (told apart by `X-Amz-Target`), DynamoDB is a
 * recording proxy in front of dynalite, and S3 is a minimal object store (path-style) for the
 * object calls the archive makes, its repair's delimited listing and the presigned GETs it hands out.
 */
export class AwsStandIns {
  readonly calls: ObservedCall[] = [];
  /** Requests a stand-in does not implement: each one is a gap in the check, so the test fails on any. */
  readonly unsupported: string[] = [];
  readonly objects = new Map<string, { body: Buffer; contentType: string | undefined }>();
  readonly executions = new Map<string, { status: string; input: string }>();
  readonly events: { EventBusName?: string; Source?: string; DetailType?: string; Detail?: string }[] = [];
  /** The Athena queries started: their workgroup by query id. */
  readonly queries = new Map<string, string>();
  /** The catalog partitions created (one at a time, or in a batch): `<database>.<table> <value> …`. */
  readonly partitions: string[] = [];
  readonly #secrets = new Map<string, { arn: string; value: string }>();
  readonly #servers: Server[] = [];
  jsonEndpoint = '';
  dynamoDbEndpoint = '';
  s3Endpoint = '';

  constructor(readonly account: AwsAccount) {}

  /** Starts the three servers; DynamoDB requests are forwarded to `dynaliteEndpoint`. */
  async start(dynaliteEndpoint: string): Promise<void> {
    this.jsonEndpoint = await this.#listen((req, body) => this.#jsonProtocol(req, body));
    this.dynamoDbEndpoint = await this.#listen((req, body) => this.#dynamoDb(req, body, dynaliteEndpoint));
    this.s3Endpoint = await this.#listen((req, body) => this.#s3(req, body));
  }

  async close(): Promise<void> {
    await Promise.all(
      this.#servers.map(
        (server) =>
          new Promise<void>((resolve) => {
            server.closeAllConnections();
            server.close(() => resolve());
          }),
      ),
    );
  }

  /** A secret as Secrets Manager keeps it: its ARN ends in a random six-character suffix. */
  putSecret(name: string, value: string): string {
    const arn = `${this.#arn('secretsmanager')}:secret:${name}-${randomUUID().slice(0, 6)}`;
    this.#secrets.set(name, { arn, value });
    return arn;
  }

  /** Every workflow started so far ends (as a dead workflow would look to the reconciler). */
  endAllExecutions(status = 'FAILED'): void {
    for (const execution of this.executions.values()) execution.status = status;
  }

  #arn(service: string): string {
    return `arn:${this.account.partition}:${service}:${this.account.region}:${this.account.accountId}`;
  }

  #record(headers: IncomingHttpHeaders, url: URL, action: string, resource: string): void {
    this.calls.push({ accessKeyId: accessKeyOf(headers, url), action, resource });
  }

  async #listen(handle: (req: IncomingMessage, body: Buffer) => Promise<Reply>): Promise<string> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        handle(req, Buffer.concat(chunks)).then(
          (reply) => {
            res.writeHead(reply.status, reply.headers);
            res.end(reply.body);
          },
          (error: unknown) => {
            res.writeHead(500, { 'content-type': 'text/plain' });
            res.end(String(error));
          },
        );
      });
    });
    this.#servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, LOOPBACK, resolve));
    return `http://${LOOPBACK}:${(server.address() as AddressInfo).port}`;
  }

  async #jsonProtocol(req: IncomingMessage, body: Buffer): Promise<Reply> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const target = String(req.headers['x-amz-target'] ?? '');
    const input = JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown>;
    const contentType = String(req.headers['content-type'] ?? 'application/x-amz-json-1.1');
    const ok = (output: unknown): Reply => ({
      status: 200,
      headers: { 'content-type': contentType },
      body: JSON.stringify(output),
    });
    const fail = (type: string, message: string): Reply => ({
      status: 400,
      headers: { 'content-type': contentType },
      body: JSON.stringify({ __type: type, message }),
    });
    const nowSeconds = Date.now() / 1000;
    switch (target) {
      case 'AWSStepFunctions.StartExecution': {
        const stateMachineArn = String(input.stateMachineArn);
        this.#record(req.headers, url, 'states:StartExecution', stateMachineArn);
        const executionArn = `${stateMachineArn.replace(':stateMachine:', ':execution:')}:${String(input.name)}`;
        const existing = this.executions.get(executionArn);
        if (existing !== undefined && (existing.status !== 'RUNNING' || existing.input !== input.input))
          return fail('ExecutionAlreadyExists', `Execution already exists: '${executionArn}'`);
        this.executions.set(executionArn, { status: 'RUNNING', input: String(input.input ?? '{}') });
        return ok({ executionArn, startDate: nowSeconds });
      }
      case 'AWSStepFunctions.StopExecution':
      case 'AWSStepFunctions.DescribeExecution': {
        const executionArn = String(input.executionArn);
        const operation = target.slice(target.indexOf('.') + 1);
        this.#record(req.headers, url, `states:${operation}`, executionArn);
        const execution = this.executions.get(executionArn);
        if (execution === undefined)
          return fail('ExecutionDoesNotExist', `Execution Does Not Exist: '${executionArn}'`);
        if (operation === 'DescribeExecution') {
          const stateMachineArn = executionArn
            .replace(':execution:', ':stateMachine:')
            .replace(/:[^:]+$/, '');
          return ok({ executionArn, stateMachineArn, status: execution.status, startDate: nowSeconds });
        }
        if (execution.status === 'RUNNING') execution.status = 'ABORTED';
        return ok({ stopDate: nowSeconds });
      }
      case 'AWSEvents.PutEvents': {
        const entries = (input.Entries ?? []) as { EventBusName?: string }[];
        for (const entry of entries) {
          const bus = entry.EventBusName ?? 'default';
          const resource = bus.startsWith('arn:') ? bus : `${this.#arn('events')}:event-bus/${bus}`;
          this.#record(req.headers, url, 'events:PutEvents', resource);
          this.events.push(entry);
        }
        return ok({ FailedEntryCount: 0, Entries: entries.map(() => ({ EventId: randomUUID() })) });
      }
      case 'secretsmanager.GetSecretValue': {
        const secretId = String(input.SecretId);
        const secret = [...this.#secrets.entries()].find(
          ([name, { arn }]) => name === secretId || arn === secretId,
        );
        this.#record(
          req.headers,
          url,
          'secretsmanager:GetSecretValue',
          secret?.[1].arn ?? `${this.#arn('secretsmanager')}:secret:${secretId}`,
        );
        if (secret === undefined)
          return fail('ResourceNotFoundException', "Secrets Manager can't find the specified secret.");
        const [name, { arn, value }] = secret;
        return ok({ ARN: arn, Name: name, SecretString: value, VersionId: 'v1', CreatedDate: nowSeconds });
      }
      case 'AWSGlue.CreatePartition':
      case 'AWSGlue.GetPartitions':
      case 'AWSGlue.BatchCreatePartition': {
        // IAM authorizes a partition's creation and reading on the catalog, its database and its table.
        const database = String(input.DatabaseName);
        const table = String(input.TableName);
        const operation = target.slice(target.indexOf('.') + 1);
        for (const resource of [
          `${this.#arn('glue')}:catalog`,
          `${this.#arn('glue')}:database/${database}`,
          `${this.#arn('glue')}:table/${database}/${table}`,
        ]) {
          this.#record(req.headers, url, `glue:${operation}`, resource);
        }
        const tablePrefix = `${database}.${table} `;
        if (operation === 'GetPartitions') {
          // Only the expression the repair sends: one spot's partitions.
          const spot = /^spot = '([^']+)'$/.exec(String(input.Expression))?.[1];
          if (spot === undefined) {
            this.unsupported.push(`Glue GetPartitions expression ${String(input.Expression)}`);
            return fail('InvalidInputException', 'The stand-in reads one spot only');
          }
          const Partitions = this.partitions
            .filter((partition) => partition.startsWith(`${tablePrefix}${spot} `))
            .map((partition) => ({ Values: partition.slice(tablePrefix.length).split(' ') }));
          return ok({ Partitions });
        }
        const inputs =
          operation === 'CreatePartition'
            ? [input.PartitionInput as { Values?: string[] }]
            : ((input.PartitionInputList ?? []) as { Values?: string[] }[]);
        const Errors = [];
        for (const partition of inputs) {
          const created = `${tablePrefix}${(partition.Values ?? []).join(' ')}`;
          if (this.partitions.includes(created)) {
            Errors.push({
              PartitionValues: partition.Values,
              ErrorDetail: { ErrorCode: 'AlreadyExistsException' },
            });
          } else this.partitions.push(created);
        }
        if (operation === 'CreatePartition' && Errors.length > 0)
          return fail('AlreadyExistsException', 'Partition already exists.');
        return ok(operation === 'CreatePartition' ? {} : { Errors });
      }
      case 'AmazonAthena.StartQueryExecution': {
        const workGroup = String(input.WorkGroup);
        this.#record(
          req.headers,
          url,
          'athena:StartQueryExecution',
          `${this.#arn('athena')}:workgroup/${workGroup}`,
        );
        // Only the count an erasure's end asks (lib/lake/userRowsCount.ts): of one table of one database.
        const database = String((input.QueryExecutionContext as { Database?: string } | undefined)?.Database);
        const table = /\bfrom\s+"?([a-z0-9_]+)"?/i.exec(String(input.QueryString))?.[1];
        if (!/^select count\(\*\)/i.test(String(input.QueryString)) || table === undefined) {
          this.unsupported.push(`Athena query ${String(input.QueryString)}`);
          return fail('InvalidRequestException', 'The stand-in answers one row count only');
        }
        // Athena reads the catalog with the caller's permissions: the database, the table and its partitions.
        const glue = this.#arn('glue');
        for (const [action, resources] of [
          ['glue:GetDatabase', [`${glue}:catalog`, `${glue}:database/${database}`]],
          [
            'glue:GetTable',
            [`${glue}:catalog`, `${glue}:database/${database}`, `${glue}:table/${database}/${table}`],
          ],
          [
            'glue:GetPartitions',
            [`${glue}:catalog`, `${glue}:database/${database}`, `${glue}:table/${database}/${table}`],
          ],
        ] as const) {
          for (const resource of resources) this.#record(req.headers, url, action, resource);
        }
        const queryId = randomUUID();
        this.queries.set(queryId, workGroup);
        return ok({ QueryExecutionId: queryId });
      }
      case 'AmazonAthena.GetQueryExecution':
      case 'AmazonAthena.GetQueryResults': {
        const queryId = String(input.QueryExecutionId);
        const workGroup = this.queries.get(queryId);
        const operation = target.slice(target.indexOf('.') + 1);
        this.#record(
          req.headers,
          url,
          `athena:${operation}`,
          `${this.#arn('athena')}:workgroup/${workGroup ?? 'unknown'}`,
        );
        if (workGroup === undefined)
          return fail('InvalidRequestException', `QueryExecution ${queryId} was not found`);
        if (operation === 'GetQueryExecution')
          return ok({
            QueryExecution: {
              QueryExecutionId: queryId,
              WorkGroup: workGroup,
              Status: { State: 'SUCCEEDED' },
            },
          });
        // The header row, then the count: none of the erased user's rows left.
        return ok({
          ResultSet: {
            Rows: [{ Data: [{ VarCharValue: '_col0' }] }, { Data: [{ VarCharValue: '0' }] }],
            ResultSetMetadata: { ColumnInfo: [{ Name: '_col0', Type: 'bigint' }] },
          },
        });
      }
      default:
        this.unsupported.push(`JSON protocol ${target}`);
        return fail('UnknownOperationException', `The stand-in does not implement ${target}`);
    }
  }

  /** Forwards to dynalite after recording `dynamodb:<Operation>` on the table (or index) ARN. */
  async #dynamoDb(req: IncomingMessage, body: Buffer, dynaliteEndpoint: string): Promise<Reply> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const operation = String(req.headers['x-amz-target'] ?? '').replace(/^DynamoDB_\d+\./, '');
    const input = JSON.parse(body.toString('utf8') || '{}') as { TableName?: string; IndexName?: string };
    if (input.TableName === undefined) {
      // Batch and transaction calls name several tables; the functions use none of them.
      this.unsupported.push(`DynamoDB ${operation}`);
    } else {
      const table = `${this.#arn('dynamodb')}:table/${input.TableName}`;
      const resource = input.IndexName === undefined ? table : `${table}/index/${input.IndexName}`;
      this.#record(req.headers, url, `dynamodb:${operation}`, resource);
    }
    return forward(dynaliteEndpoint, req, body);
  }

  /** Path-style object calls, mapped to the IAM actions S3 authorizes them with. */
  async #s3(req: IncomingMessage, body: Buffer): Promise<Reply> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const [, bucket = '', ...keyParts] = url.pathname.split('/');
    const key = keyParts.map(decodeURIComponent).join('/');
    const objectArn = `arn:${this.account.partition}:s3:::${bucket}/${key}`;
    const method = req.method ?? 'GET';
    const query = url.searchParams;
    const xml = (status: number, text: string): Reply => ({
      status,
      headers: { 'content-type': 'application/xml' },
      body: `<?xml version="1.0" encoding="UTF-8"?>${text}`,
    });
    const record = (action: string, resource = objectArn) => this.#record(req.headers, url, action, resource);
    if (key === '' && method === 'GET' && query.get('list-type') === '2') {
      // ListObjectsV2 with a delimiter (the partition repair's): the common prefixes under `prefix`.
      record('s3:ListBucket', `arn:${this.account.partition}:s3:::${bucket}`);
      const prefix = query.get('prefix') ?? '';
      const delimiter = query.get('delimiter') ?? '';
      if (delimiter === '' || query.has('continuation-token')) {
        this.unsupported.push(`S3 ListObjectsV2 ${url.search}`);
        return xml(501, '<Error><Code>NotImplemented</Code></Error>');
      }
      const common = new Set<string>();
      for (const objectKey of this.objects.keys()) {
        if (!objectKey.startsWith(`${bucket}/${prefix}`)) continue;
        const rest = objectKey.slice(bucket.length + 1 + prefix.length);
        const index = rest.indexOf(delimiter);
        if (index >= 0) common.add(`${prefix}${rest.slice(0, index + delimiter.length)}`);
      }
      const prefixes = [...common]
        .sort()
        .map((name) => `<CommonPrefixes><Prefix>${name}</Prefix></CommonPrefixes>`)
        .join('');
      return xml(
        200,
        `<ListBucketResult><Name>${bucket}</Name><Prefix>${prefix}</Prefix><Delimiter>${delimiter}</Delimiter><KeyCount>${common.size}</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated>${prefixes}</ListBucketResult>`,
      );
    }
    // The versions under a prefix (an erasure's check and clean-up): one current version per object.
    if (key === '' && method === 'GET' && query.has('versions')) {
      record('s3:ListBucketVersions', `arn:${this.account.partition}:s3:::${bucket}`);
      const prefix = `${bucket}/${query.get('prefix') ?? ''}`;
      const versions = [...this.objects.keys()]
        .filter((name) => name.startsWith(prefix) && !name.endsWith('?parts'))
        .map(
          (name) =>
            `<Version><Key>${name.slice(bucket.length + 1)}</Key><VersionId>${STAND_IN_VERSION_ID}</VersionId><IsLatest>true</IsLatest></Version>`,
        );
      return xml(
        200,
        `<ListVersionsResult><Name>${bucket}</Name><IsTruncated>false</IsTruncated>${versions.join('')}</ListVersionsResult>`,
      );
    }
    if (key === '') {
      this.unsupported.push(`S3 bucket-level ${method} ${url.search}`);
      return xml(501, '<Error><Code>NotImplemented</Code></Error>');
    }
    const objectKey = `${bucket}/${key}`;
    if (method === 'PUT' && !query.has('uploadId')) {
      record('s3:PutObject');
      const contentType = req.headers['content-type'];
      this.objects.set(objectKey, { body: decodeBody(req.headers, body), contentType });
      return { status: 200, headers: { etag: '"stand-in"' }, body: '' };
    }
    if (method === 'GET' || method === 'HEAD') {
      record('s3:GetObject');
      const object = this.objects.get(objectKey);
      if (object === undefined) return xml(404, '<Error><Code>NoSuchKey</Code></Error>');
      return {
        status: 200,
        headers: {
          'content-length': String(object.body.length),
          ...(object.contentType !== undefined && { 'content-type': object.contentType }),
        },
        body: method === 'HEAD' ? '' : object.body,
      };
    }
    // Multipart uploads (objects over the upload's part size): S3 authorizes each step as PutObject.
    if (method === 'POST' && query.has('uploads')) {
      record('s3:PutObject');
      this.objects.set(`${objectKey}?parts`, {
        body: Buffer.alloc(0),
        contentType: req.headers['content-type'],
      });
      return xml(
        200,
        `<InitiateMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${key}</Key><UploadId>upload-1</UploadId></InitiateMultipartUploadResult>`,
      );
    }
    if (method === 'PUT' && query.has('uploadId')) {
      record('s3:PutObject');
      const parts = this.objects.get(`${objectKey}?parts`);
      if (parts === undefined) return xml(404, '<Error><Code>NoSuchUpload</Code></Error>');
      parts.body = Buffer.concat([parts.body, decodeBody(req.headers, body)]);
      return { status: 200, headers: { etag: `"part-${query.get('partNumber')}"` }, body: '' };
    }
    if (method === 'POST' && query.has('uploadId')) {
      record('s3:PutObject');
      const parts = this.objects.get(`${objectKey}?parts`);
      if (parts === undefined) return xml(404, '<Error><Code>NoSuchUpload</Code></Error>');
      this.objects.delete(`${objectKey}?parts`);
      this.objects.set(objectKey, parts);
      return xml(
        200,
        `<CompleteMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${key}</Key><ETag>"stand-in"</ETag></CompleteMultipartUploadResult>`,
      );
    }
    if (method === 'DELETE' && query.has('versionId')) {
      record('s3:DeleteObjectVersion');
      this.objects.delete(objectKey);
      return { status: 204, headers: {}, body: '' };
    }
    if (method === 'DELETE' && query.has('uploadId')) {
      record('s3:AbortMultipartUpload');
      this.objects.delete(`${objectKey}?parts`);
      return { status: 204, headers: {}, body: '' };
    }
    this.unsupported.push(`S3 object ${method} ${url.search}`);
    return xml(501, '<Error><Code>NotImplemented</Code></Error>');
  }
}

/** The stand-in keeps one version of each object. */
const STAND_IN_VERSION_ID = 'v1';

interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

/** The access key id a request was signed with (header or presigned query). */
export function accessKeyOf(headers: IncomingHttpHeaders, url: URL): string {
  const credential =
    /Credential=([^/,\s]+)\//.exec(String(headers.authorization ?? ''))?.[1] ??
    url.searchParams.get('X-Amz-Credential')?.split('/')[0];
  return credential ?? 'unsigned';
}

/** A body sent as `aws-chunked` (with trailing checksums) back to its bytes; others as they are. */
export function decodeBody(headers: IncomingHttpHeaders, body: Buffer): Buffer {
  if (!String(headers['content-encoding'] ?? '').includes('aws-chunked')) return body;
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', offset);
    if (lineEnd < 0) break;
    const size = Number.parseInt(body.subarray(offset, lineEnd).toString('latin1').split(';')[0] ?? '', 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

async function forward(endpoint: string, req: IncomingMessage, body: Buffer): Promise<Reply> {
  const target = new URL(req.url ?? '/', endpoint);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      target,
      { method: req.method, headers: { ...req.headers, host: target.host } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const headers = Object.fromEntries(
            Object.entries(res.headers)
              .filter(([name]) => name !== 'transfer-encoding' && name !== 'connection')
              .map(([name, value]) => [name, String(value)]),
          );
          resolve({ status: res.statusCode ?? 502, headers, body: Buffer.concat(chunks) });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}
