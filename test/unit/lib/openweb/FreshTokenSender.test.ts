import { describe, expect, it } from 'vitest';
import { AuthRejectedError } from '../../../../lib/exports/upstream/errors';
import { FreshTokenSender } from '../../../../lib/openweb/FreshTokenSender';
import type { Exchange } from '../../../../lib/openweb/HttpTransport';
import type { TokenProvider } from '../../../../lib/openweb/TokenProvider';

const SPOT = 'sp_tokens';

function reply(statusCode: number): Exchange {
  return { kind: 'reply', reply: { statusCode } } as Exchange;
}

/** A token provider handing out `token-1`, then `token-2`… each time the current one is replaced. */
function tokens() {
  let current = 1;
  const replaced: string[] = [];
  const provider = {
    getToken: async () => ({ token: `token-${current}` }),
    replaceRejectedToken: async (_spotId: string, rejected: string) => {
      replaced.push(rejected);
      current += 1;
      return { token: `token-${current}` };
    },
  } as unknown as TokenProvider;
  return { provider, replaced };
}

function sender(provider: TokenProvider) {
  let rejections = 0;
  const tokenSender = new FreshTokenSender({
    tokens: provider,
    spotId: SPOT,
    onTokenRejected: () => {
      rejections += 1;
    },
  });
  return { tokenSender, rejections: () => rejections };
}

describe('FreshTokenSender', () => {
  it("sends with the spot's shared token, and leaves it be when it is accepted", async () => {
    // Prepare
    const { provider, replaced } = tokens();
    const { tokenSender, rejections } = sender(provider);
    const sent: string[] = [];

    // Act
    const exchange = await tokenSender.sendWithFreshToken(async (token) => {
      sent.push(token);
      return reply(200);
    });

    // Assess
    expect(exchange).toEqual(reply(200));
    expect(sent).toEqual(['token-1']);
    expect(replaced).toEqual([]);
    expect(rejections()).toBe(0);
  });

  it('replaces a refused token and sends again at once, telling of the refusal', async () => {
    // Prepare
    const { provider, replaced } = tokens();
    const { tokenSender, rejections } = sender(provider);
    const sent: string[] = [];

    // Act
    const exchange = await tokenSender.sendWithFreshToken(async (token) => {
      sent.push(token);
      return reply(token === 'token-1' ? 401 : 201);
    });

    // Assess
    expect(exchange).toEqual(reply(201));
    expect(sent).toEqual(['token-1', 'token-2']);
    expect(replaced).toEqual(['token-1']);
    expect(rejections()).toBe(1);
  });

  it('reads a second refusal as rejected credentials, whether on the resend or a later attempt of the call', async () => {
    // Prepare
    const { provider: first } = tokens();
    const { provider: second, replaced } = tokens();
    const always401 = async () => reply(401);
    const { tokenSender: onResend } = sender(first);
    const { tokenSender: acrossAttempts } = sender(second);
    let calls = 0;

    // Act
    const resend = onResend.sendWithFreshToken(always401);
    await acrossAttempts.sendWithFreshToken(async () => reply(++calls === 1 ? 401 : 503));
    const laterAttempt = acrossAttempts.sendWithFreshToken(always401);

    // Assess
    await expect(resend).rejects.toBeInstanceOf(AuthRejectedError);
    await expect(laterAttempt).rejects.toBeInstanceOf(AuthRejectedError);
    expect(replaced).toEqual(['token-1']);
  });

  it('passes a transport failure on as it is, without touching the token', async () => {
    // Prepare
    const { provider, replaced } = tokens();
    const { tokenSender } = sender(provider);
    const failure = { kind: 'failure', failure: { reason: 'reset' } } as unknown as Exchange;

    // Act
    const exchange = await tokenSender.sendWithFreshToken(async () => failure);

    // Assess
    expect(exchange).toBe(failure);
    expect(replaced).toEqual([]);
  });
});
