// An isolate remembers the access tokens it verified, so a customer's next call skips the signature check: remembered
// only until the token expires, and only under the secret that signed it.
import { env } from 'cloudflare:test';
import { SignJWT } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import { signAccessToken, verifyAccessToken } from '../../../worker/services/accounts/tokens';

const claims = { userId: 42, userType: 2, sessionId: crypto.randomUUID() };

describe('a verified access token', () => {
  it('is taken at its word again until it expires', async () => {
    const key = new TextEncoder().encode(env.JWT_SECRET);
    const expiresAt = Math.floor(Date.now() / 1000) + 5;
    const token = await new SignJWT({ typ: claims.userType, sid: claims.sessionId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(claims.userId))
      .setIssuer('smm-panel')
      .setExpirationTime(expiresAt)
      .sign(key);
    expect(await verifyAccessToken(env.JWT_SECRET, token)).toEqual(claims);
    expect(await verifyAccessToken(env.JWT_SECRET, token)).toEqual(claims);
    await vi.waitFor(async () => expect(await verifyAccessToken(env.JWT_SECRET, token)).toBeNull(), { timeout: 30_000, interval: 250 });
  });

  it('is refused once the secret changes, and a forged one is never remembered', async () => {
    const token = await signAccessToken(env.JWT_SECRET, claims);
    expect(await verifyAccessToken(env.JWT_SECRET, token)).toEqual(claims);
    expect(await verifyAccessToken(`${env.JWT_SECRET}-rotated`, token)).toBeNull();
    const [header, payload] = token.split('.');
    const forged = `${header}.${payload}.${'A'.repeat(43)}`;
    expect(await verifyAccessToken(env.JWT_SECRET, forged)).toBeNull();
    expect(await verifyAccessToken(env.JWT_SECRET, forged)).toBeNull();
    expect(await verifyAccessToken(env.JWT_SECRET, token)).toEqual(claims);
  });
});
