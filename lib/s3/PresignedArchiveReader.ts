import { formatUrl } from '@aws-sdk/core/util';
import { S3RequestPresigner } from '@aws-sdk/s3-request-presigner';
import { escapeUriPath, HttpRequest } from '@smithy/core/protocols';
import { Hash } from '@smithy/core/serde';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';
import { ArchivedObjectMissingError, ArchiveReadError } from '../archive/errors';
import type { ArchiveReader } from '../archive/ports';

/** How long the URL the reader signs for its own GET of an object works. */
const READ_URL_EXPIRY_SECONDS = 60;
/** A manifest read is tried this many times when S3 answers 5xx/429 or the connection fails. */
const READ_ATTEMPTS = 3;
const READ_RETRY_BASE_MS = 100;

export interface PresignedArchiveReaderOptions {
  /**
   * The bucket's URL: virtual-hosted in AWS (`https://<bucket>.s3.<region>.amazonaws.com`, the
   * bucket's regional domain name the stack hands the function), or path-style
   * (`http://127.0.0.1:4569/<bucket>`) for a stand-in.
   */
  bucketUrl: string;
  /** The region the bucket's requests are signed for. */
  region: string;
  credentials: AwsCredentialIdentity | AwsCredentialIdentityProvider;
  /** The GET of `read`; the global fetch by default. */
  fetch?: typeof fetch;
  /** Bound of one GET of `read`. */
  requestTimeoutMs: number;
}

/**
 * The archive in an S3 bucket, read with presigned GETs: the download URLs `/files` hands out,
 * and the manifest's bytes fetched through such a URL. Signing needs S3's SigV4 presigner only,
 * not the S3 client, whose operation models would be most of the files function's cold start.
 */
export class PresignedArchiveReader implements ArchiveReader {
  readonly #presigner: S3RequestPresigner;
  readonly #bucketUrl: URL;
  readonly #fetch: typeof fetch;
  readonly #requestTimeoutMs: number;

  constructor(options: PresignedArchiveReaderOptions) {
    this.#bucketUrl = new URL(options.bucketUrl);
    this.#presigner = new S3RequestPresigner({
      region: options.region,
      credentials: options.credentials,
      sha256: Hash.bind(null, 'sha256'),
    });
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
    this.#requestTimeoutMs = options.requestTimeoutMs;
  }

  async downloadUrl(key: string, expiresInSeconds: number): Promise<string> {
    const base = this.#bucketUrl;
    const request = new HttpRequest({
      method: 'GET',
      protocol: base.protocol,
      hostname: base.hostname,
      ...(base.port !== '' && { port: Number(base.port) }),
      // Each segment escaped as S3 expects it (RFC 3986 unreserved kept), `/` kept.
      path: `${base.pathname.replace(/\/$/, '')}/${escapeUriPath(key)}`,
      headers: { host: base.host },
    });
    return formatUrl(await this.#presigner.presign(request, { expiresIn: expiresInSeconds }));
  }

  /**
   * @throws ArchivedObjectMissingError when the bucket has no such object
   * @throws ArchiveReadError when S3 refuses the read, or keeps failing
   */
  async read(key: string): Promise<Uint8Array> {
    for (let attempt = 1; ; attempt++) {
      const url = await this.downloadUrl(key, READ_URL_EXPIRY_SECONDS);
      let response: Response;
      try {
        response = await this.#fetch(url, { signal: AbortSignal.timeout(this.#requestTimeoutMs) });
      } catch (error) {
        if (attempt < READ_ATTEMPTS) {
          await backOff(attempt);
          continue;
        }
        throw new ArchiveReadError(key, `S3 could not be reached: ${messageOf(error)}`, { cause: error });
      }
      if (response.ok) return new Uint8Array(await response.arrayBuffer());
      const code = s3ErrorCode(await response.text());
      // S3 says NoSuchKey only to a caller that may list the bucket; otherwise AccessDenied.
      if (response.status === 404) throw new ArchivedObjectMissingError(key);
      if ((response.status >= 500 || response.status === 429) && attempt < READ_ATTEMPTS) {
        await backOff(attempt);
        continue;
      }
      throw new ArchiveReadError(
        key,
        `S3 answered ${response.status}${code === undefined ? '' : ` ${code}`}`,
      );
    }
  }
}

/** `<Code>…</Code>` of S3's XML error body, if it has one. */
function s3ErrorCode(body: string): string | undefined {
  return /<Code>([^<]{1,100})<\/Code>/.exec(body)?.[1];
}

/** Full jitter: a random wait below 100 ms, then 200 ms. */
function backOff(attempt: number): Promise<void> {
  const ms = Math.random() * READ_RETRY_BASE_MS * 2 ** (attempt - 1);
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
