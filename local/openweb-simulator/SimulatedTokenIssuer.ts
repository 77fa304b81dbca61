import { randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

export const SIMULATED_TOKEN_ISSUER = 'openweb-simulator';

/**
 * Issues and checks the upstream's JWTs (HS256). The secret is random per instance (unless a
 * saved one is given back after a restart), so a token from another simulator is rejected
 * like a foreign token.
 */
export class SimulatedTokenIssuer {
  readonly secret: Uint8Array;

  constructor(
    private readonly now: () => number,
    secret?: Uint8Array,
  ) {
    this.secret = secret ?? new Uint8Array(randomBytes(32));
  }

  async issue(spotId: string, ttlSeconds: number): Promise<string> {
    const issuedAtSeconds = Math.floor(this.now() / 1000);
    return new SignJWT({ spot_id: spotId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(SIMULATED_TOKEN_ISSUER)
      .setIssuedAt(issuedAtSeconds)
      .setExpirationTime(issuedAtSeconds + ttlSeconds)
      .sign(this.secret);
  }

  /** The spot the token was issued for, or undefined for a token that is forged, foreign or expired. */
  async spotOf(token: string): Promise<string | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.secret, {
        algorithms: ['HS256'],
        issuer: SIMULATED_TOKEN_ISSUER,
        currentDate: new Date(this.now()),
      });
      return typeof payload.spot_id === 'string' ? payload.spot_id : undefined;
    } catch {
      // Whatever jose rejects (signature, expiry, shape) is one answer to the caller: 401.
      return undefined;
    }
  }
}
