import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Metafile } from 'esbuild';

/**
 * The AWS SDK packages whose commands the functions' code constructs, by IAM service prefix.
 * A command imported from any other AWS package is refused: add the package here first.
 */
const COMMAND_PACKAGES: Record<string, string> = {
  '@aws-sdk/client-dynamodb': 'dynamodb',
  '@aws-sdk/lib-dynamodb': 'dynamodb',
  '@aws-sdk/client-s3': 's3',
  '@aws-sdk/client-sfn': 'states',
  '@aws-sdk/client-eventbridge': 'events',
  '@aws-sdk/client-secrets-manager': 'secretsmanager',
  '@aws-sdk/client-glue': 'glue',
  '@aws-sdk/client-athena': 'athena',
};

/** The document client's commands send the DynamoDB operations of other names. */
const DOCUMENT_CLIENT_OPERATIONS: Record<string, string> = {
  Get: 'GetItem',
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  Query: 'Query',
  Scan: 'Scan',
  BatchGet: 'BatchGetItem',
  BatchWrite: 'BatchWriteItem',
  TransactGet: 'TransactGetItems',
  TransactWrite: 'TransactWriteItems',
};

/** S3 operations IAM authorizes under another action. */
const S3_ACTIONS: Record<string, string> = {
  CreateMultipartUpload: 'PutObject',
  UploadPart: 'PutObject',
  CompleteMultipartUpload: 'PutObject',
  HeadObject: 'GetObject',
  ListObjectsV2: 'ListBucket',
  ListObjects: 'ListBucket',
};

/**
 * Library classes that send AWS requests themselves once constructed, with what they can send:
 * lib-storage's Upload (a PutObject, or a multipart upload it aborts on failure, and tags when
 * given some), Powertools' secrets provider (GetSecretValue), and S3's presigner, whose signed
 * requests go out with the signer's permissions (the archive reader signs GETs only).
 */
const LIBRARY_SENDERS: Record<string, Record<string, readonly string[]>> = {
  '@aws-sdk/lib-storage': { Upload: ['s3:PutObject', 's3:AbortMultipartUpload', 's3:PutObjectTagging'] },
  '@aws-lambda-powertools/parameters/secrets': { SecretsProvider: ['secretsmanager:GetSecretValue'] },
  '@aws-sdk/s3-request-presigner': { S3RequestPresigner: ['s3:GetObject'] },
};

const IMPORT = /import\s+(type\s+)?\{([^}]*)\}\s+from\s+'([^']+)'/g;

/** `{ A, type B, C as D }` → value imports as [imported name, local name]. */
function valueImports(specifiers: string): [string, string][] {
  return specifiers
    .split(',')
    .map((specifier) => specifier.trim())
    .filter((specifier) => specifier !== '' && !specifier.startsWith('type '))
    .map((specifier) => {
      const [imported, local = imported] = specifier.split(/\s+as\s+/) as [string, string?];
      return [imported, local as string];
    });
}

function iamActionOf(service: string, command: string): string {
  const operation = command.replace(/Command$/, '');
  if (service === 'dynamodb' && operation in DOCUMENT_CLIENT_OPERATIONS) {
    return `dynamodb:${DOCUMENT_CLIENT_OPERATIONS[operation]}`;
  }
  if (service === 's3') return `s3:${S3_ACTIONS[operation] ?? operation}`;
  return `${service}:${operation}`;
}

/**
 * The AWS operations one source file can send: each command class it imports from an AWS SDK
 * package and constructs (`new XCommand(`), and what each library sender it constructs can send,
 * as the IAM actions they need. A command imported as a value but never constructed here is
 * refused: it would travel to code this check does not read.
 */
export function operationsOfSource(source: string, file = 'source'): string[] {
  const actions: string[] = [];
  for (const [, typeOnly, specifiers = '', from = ''] of source.matchAll(IMPORT)) {
    if (typeOnly !== undefined) continue;
    const service = COMMAND_PACKAGES[from];
    const senders = LIBRARY_SENDERS[from];
    for (const [imported, local] of valueImports(specifiers)) {
      const constructed = new RegExp(`\\bnew\\s+${local}\\s*\\(`).test(source);
      if (service !== undefined && imported.endsWith('Command')) {
        if (!constructed) throw new Error(`${file} imports ${imported} but does not construct it here`);
        actions.push(iamActionOf(service, imported));
      } else if (senders?.[imported] !== undefined && constructed) {
        actions.push(...senders[imported]);
      } else if (
        from.startsWith('@aws-sdk/client-') &&
        service === undefined &&
        imported.endsWith('Client')
      ) {
        throw new Error(`${file} builds a client of ${from}, which the check does not know`);
      }
    }
  }
  return [...new Set(actions)].sort();
}

/**
 * What a bundle can send to AWS: the operations of every file of the project's own code in it
 * (files esbuild kept code of, per its metafile), each with the files that send it.
 */
export function sendableAwsOperations(metafile: Metafile, projectRoot: string): Map<string, string[]> {
  const output = Object.values(metafile.outputs).find((candidate) => candidate.entryPoint !== undefined);
  if (output === undefined) throw new Error('The metafile has no entry point output');
  const operations = new Map<string, string[]>();
  for (const [file, { bytesInOutput }] of Object.entries(output.inputs)) {
    if (bytesInOutput === 0 || file.includes('node_modules/') || !file.endsWith('.ts')) continue;
    for (const action of operationsOfSource(readFileSync(join(projectRoot, file), 'utf8'), file)) {
      operations.set(action, [...(operations.get(action) ?? []), file]);
    }
  }
  return operations;
}
