import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import type { ApiRequest, RequestSigner } from './ApiRequest';
import type { AwsCredentials, AwsCredentialsProvider } from './AwsCredentials';
import { AwsCredentialsUnavailableError } from './errors';

export const EXECUTE_API_SERVICE = 'execute-api';

export interface SigV4RequestSignerOptions {
  region: string;
  credentials: AwsCredentialsProvider;
  /** Milliseconds since the epoch; the signing time. */
  now: () => number;
  service?: string;
}

/** Signs API requests with AWS Signature Version 4, for an API Gateway route with IAM authorization. */
export function createSigV4RequestSigner(options: SigV4RequestSignerOptions): RequestSigner {
  const signer = new SignatureV4({
    service: options.service ?? EXECUTE_API_SERVICE,
    region: options.region,
    credentials: () => resolveCredentials(options.credentials),
    sha256: Sha256,
  });
  return async function signRequest(request: ApiRequest): Promise<Record<string, string>> {
    const { url } = request;
    const signed = await signer.sign(
      {
        method: request.method,
        protocol: url.protocol,
        hostname: url.hostname,
        ...(url.port ? { port: Number(url.port) } : {}),
        path: url.pathname,
        query: queryOf(url),
        // `host` is part of the signature; fetch sends the same value itself.
        headers: { ...request.headers, host: url.host },
        ...(request.body === undefined ? {} : { body: request.body }),
      },
      { signingDate: new Date(options.now()) },
    );
    const { host: _host, ...headers } = signed.headers;
    return headers;
  };
}

async function resolveCredentials(provider: AwsCredentialsProvider): Promise<AwsCredentials> {
  try {
    return await provider();
  } catch (error) {
    throw new AwsCredentialsUnavailableError(
      `no AWS credentials to sign the request with (${error instanceof Error ? error.message : String(error)})`,
      { cause: error },
    );
  }
}

function queryOf(url: URL): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    query[key] = values.length === 1 ? (values[0] as string) : values;
  }
  return query;
}
