import type { CredentialsProvider } from '../exports/upstream/CredentialsProvider';
import {
  AuthRejectedError,
  UpstreamProtocolError,
  UpstreamRateLimitedError,
  UpstreamRequestRejectedError,
} from '../exports/upstream/errors';
import type { AuthPacer } from './AuthPacer';
import { buildUrl } from './buildUrl';
import type { Exchange, HttpTransport, ReceivedReply } from './HttpTransport';
import { isSuccess } from './httpStatus';
import type { OpenWebClientEvent } from './OpenWebClientEvent';
import { OpenWebOperation } from './OpenWebOperation';
import type { AttemptOutcome, RetryLoop } from './RetryLoop';
import { readAuthToken } from './responses';
import { retryableReply, unavailable } from './retryableOutcome';
import { tokenExpiresAt } from './TokenProvider';
import type { UpstreamToken } from './TokenStore';

/** An auth 429 without `Retry-After` waits at least this: the upstream's documented one request per second. */
export const AUTH_RATE_LIMIT_MIN_WAIT_MS = 1_000;

export interface UpstreamAuthenticatorOptions {
  /** Base URL of `POST /v1/publisher/auth`. */
  authBaseUrl: string;
  credentials: CredentialsProvider;
  authPacer: AuthPacer | undefined;
  transport: HttpTransport;
  retries: RetryLoop;
  requestTimeoutMs: number;
  /** Epoch ms. */
  now: () => number;
  emit: (event: OpenWebClientEvent) => void;
}

/** The answers that refuse the key itself (the upstream uses all three). */
function isKeyRefused(exchange: Exchange): exchange is { kind: 'reply'; reply: ReceivedReply } {
  if (exchange.kind !== 'reply') return false;
  const { statusCode } = exchange.reply;
  return statusCode === 400 || statusCode === 401 || statusCode === 403;
}

/**
 * The auth endpoint: a fresh token for a spot, each request through the fleet's auth pacer,
 * retried like any call. A refused key (400/401/403) is re-read from the credentials provider,
 * bypassing its cache (key rotation), and sent again at once: at most once per call. Refused
 * again, on this attempt or a later one, it is `AuthRejectedError`.
 */
export class UpstreamAuthenticator {
  readonly #options: UpstreamAuthenticatorOptions;

  constructor(options: UpstreamAuthenticatorOptions) {
    this.#options = options;
  }

  async authenticate(spotId: string): Promise<UpstreamToken> {
    const { credentials, retries, emit } = this.#options;
    let { apiKey } = await credentials.getCredentials(spotId);
    let keyRefreshed = false;
    const sendWithFreshKey = async (attempt: number): Promise<Exchange> => {
      const exchange = await this.#send(spotId, attempt, apiKey);
      if (!isKeyRefused(exchange)) return exchange;
      // An earlier attempt of this call re-read the key already: this one was refused too.
      if (keyRefreshed) throw new AuthRejectedError(spotId, { statusCode: exchange.reply.statusCode });
      keyRefreshed = true;
      ({ apiKey } = await credentials.getCredentials(spotId, { forceRefresh: true }));
      emit({ type: 'credentialsRefreshed', spotId });
      const resent = await this.#send(spotId, attempt, apiKey);
      if (isKeyRefused(resent)) throw new AuthRejectedError(spotId, { statusCode: resent.reply.statusCode });
      return resent;
    };
    return retries.run(OpenWebOperation.AUTHENTICATE, spotId, async (attempt) =>
      this.#outcomeOf(spotId, await sendWithFreshKey(attempt)),
    );
  }

  async #send(spotId: string, attempt: number, apiKey: string): Promise<Exchange> {
    const { authPacer, transport, authBaseUrl } = this.#options;
    // Throws UpstreamAuthPaced, nothing sent, when the fleet has no slot free soon.
    await authPacer?.acquire(spotId);
    return transport.exchange({
      operation: OpenWebOperation.AUTHENTICATE,
      spotId,
      attempt,
      method: 'POST',
      url: buildUrl(authBaseUrl, '/v1/publisher/auth'),
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ spot_id: spotId, apikey: apiKey }),
    });
  }

  async #outcomeOf(spotId: string, exchange: Exchange): Promise<AttemptOutcome<UpstreamToken>> {
    const { now, emit, requestTimeoutMs } = this.#options;
    if (exchange.kind === 'failure') return unavailable(exchange.failure, requestTimeoutMs);
    const { reply } = exchange;
    if (isSuccess(reply.statusCode)) {
      const token = readAuthToken(reply);
      const issued = { token, expiresAt: tokenExpiresAt(token, now()) };
      emit({ type: 'authenticated', spotId, expiresAt: issued.expiresAt });
      return { kind: 'done', value: issued };
    }
    if (reply.statusCode === 429) return this.#rateLimited(reply);
    const retryable = retryableReply(reply);
    if (retryable !== undefined) return retryable;
    // The body is left out: an auth answer may echo credentials or carry a token.
    throw reply.statusCode >= 400
      ? new UpstreamRequestRejectedError(reply.statusCode, undefined)
      : new UpstreamProtocolError(
          `The upstream answered auth with unexpected HTTP ${reply.statusCode}`,
          reply.statusCode,
          '',
        );
  }

  /**
   * The auth limit is per address: a 429 means the whole fleet is too fast. Without
   * `Retry-After` the wait is at least one pacing interval (the documented second), never a
   * short backoff, and the pacer holds every container's next auth until then.
   */
  async #rateLimited(reply: ReceivedReply): Promise<AttemptOutcome<never>> {
    const { authPacer, now } = this.#options;
    const intervalMs = authPacer?.intervalMs ?? AUTH_RATE_LIMIT_MIN_WAIT_MS;
    const waitMs = Math.max(reply.retryAfterMs ?? 0, intervalMs);
    await authPacer?.holdUntil(now() + waitMs);
    return {
      kind: 'retryable',
      error: new UpstreamRateLimitedError(waitMs),
      reason: `HTTP ${reply.statusCode}`,
      retryAfterMs: waitMs,
    };
  }
}
