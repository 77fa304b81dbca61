import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Upstream download links expire one week after they are generated. */
export const DOWNLOAD_LINK_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export const DownloadLinkChecks = {
  valid: 'valid',
  invalid: 'invalid',
  expired: 'expired',
} as const;

export type DownloadLinkCheck = (typeof DownloadLinkChecks)[keyof typeof DownloadLinkChecks];

/** Path of the n-th (1-based) file of an export, as served by the simulator. */
export function downloadPath(exportId: string, fileNumber: number): string {
  return `/files/${encodeURIComponent(exportId)}/${fileNumber}.csv.zip`;
}

/** Signs download links like a pre-signed storage URL: `?expires=<epoch s>&signature=<hmac>`. */
export class DownloadLinkSigner {
  readonly secret: Buffer;

  constructor(
    private readonly baseUrl: string,
    secret?: Buffer,
  ) {
    this.secret = secret ?? randomBytes(32);
  }

  linkFor(exportId: string, fileNumber: number, generatedAt: number): string {
    const expiresSeconds = Math.floor((generatedAt + DOWNLOAD_LINK_LIFETIME_MS) / 1000);
    const link = new URL(downloadPath(exportId, fileNumber), this.baseUrl);
    link.searchParams.set('expires', String(expiresSeconds));
    link.searchParams.set('signature', this.#sign(exportId, fileNumber, expiresSeconds));
    return link.toString();
  }

  check(
    exportId: string,
    fileNumber: number,
    expires: string | null,
    signature: string | null,
    now: number,
  ): DownloadLinkCheck {
    if (expires === null || signature === null || !/^\d+$/.test(expires)) {
      return DownloadLinkChecks.invalid;
    }
    const expected = Buffer.from(this.#sign(exportId, fileNumber, Number(expires)));
    const received = Buffer.from(signature);
    if (expected.length !== received.length || !timingSafeEqual(expected, received)) {
      return DownloadLinkChecks.invalid;
    }
    return Number(expires) * 1000 <= now ? DownloadLinkChecks.expired : DownloadLinkChecks.valid;
  }

  #sign(exportId: string, fileNumber: number, expiresSeconds: number): string {
    return createHmac('sha256', this.secret)
      .update(`${exportId}/${fileNumber}:${expiresSeconds}`)
      .digest('hex');
  }
}
