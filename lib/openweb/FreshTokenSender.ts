import { AuthRejectedError } from '../exports/upstream/errors';
import type { Exchange } from './HttpTransport';
import type { TokenProvider } from './TokenProvider';

export interface FreshTokenSenderOptions {
  tokens: TokenProvider;
  spotId: string;
  /** Told when the upstream refused the token, before it is replaced. */
  onTokenRejected: () => void;
}

function isUnauthorized(exchange: Exchange): boolean {
  return exchange.kind === 'reply' && exchange.reply.statusCode === 401;
}

/**
 * The token wiring of one export call; make one per call. Every send carries the spot's
 * shared token. A 401 proves the request was not processed (a create included), so the token
 * is replaced and the request sent again at once, without using up an attempt: at most once
 * per call. One more 401, on this attempt or a later one, is `AuthRejectedError`.
 */
export class FreshTokenSender {
  readonly #options: FreshTokenSenderOptions;
  #tokenReplaced = false;

  constructor(options: FreshTokenSenderOptions) {
    this.#options = options;
  }

  async sendWithFreshToken(send: (token: string) => Promise<Exchange>): Promise<Exchange> {
    const { tokens, spotId, onTokenRejected } = this.#options;
    const { token } = await tokens.getToken(spotId);
    const exchange = await send(token);
    if (!isUnauthorized(exchange)) return exchange;
    // An earlier attempt of this call replaced the token already: this one was refused too.
    if (this.#tokenReplaced) throw new AuthRejectedError(spotId, { statusCode: 401 });
    this.#tokenReplaced = true;
    onTokenRejected();
    const fresh = await tokens.replaceRejectedToken(spotId, token);
    const resent = await send(fresh.token);
    if (isUnauthorized(resent)) throw new AuthRejectedError(spotId, { statusCode: 401 });
    return resent;
  }
}
