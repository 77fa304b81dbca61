import { createHash, createHmac } from 'node:crypto';
import type { AwsCredentials } from '../../../../cli/AwsCredentials';

export interface SignedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

const AUTHORIZATION =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/;

/**
 * Recomputes the SigV4 signature of a request as it goes on the wire, the way the receiving side
 * does (AWS Signature Version 4, single-segment paths without reserved characters), so a test
 * can tell that what was signed is what is sent.
 */
export function isValidSigV4Signature(request: SignedRequest, credentials: AwsCredentials): boolean {
  const match = AUTHORIZATION.exec(request.headers.authorization ?? '');
  if (match === null) return false;
  const [, accessKeyId, date = '', region = '', service = '', signedHeaderList = '', signature] = match;
  if (accessKeyId !== credentials.accessKeyId) return false;
  const url = new URL(request.url);
  const headers: Record<string, string> = { ...lowerCaseKeys(request.headers), host: url.host };
  const signedHeaders = signedHeaderList.split(';');
  const canonicalQuery = [...url.searchParams]
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .sort()
    .join('&');
  const canonicalRequest = [
    request.method,
    url.pathname,
    canonicalQuery,
    ...signedHeaders.map((name) => `${name}:${(headers[name] ?? '').trim()}`),
    '',
    signedHeaderList,
    sha256Hex(request.body ?? ''),
  ].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', headers['x-amz-date'], scope, sha256Hex(canonicalRequest)].join(
    '\n',
  );
  let key: Buffer = Buffer.from(`AWS4${credentials.secretAccessKey}`);
  for (const part of [date, region, service, 'aws4_request']) key = hmac(key, part);
  return hmac(key, stringToSign).toString('hex') === signature;
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function hmac(key: Buffer, text: string): Buffer {
  return createHmac('sha256', key).update(text).digest();
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
