// Access tokens: short-lived HS256 JWTs naming the user, their type and their session.
import { jwtVerify, SignJWT } from 'jose';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_DAYS = 30;
const ISSUER = 'smm-panel';

export interface AccessClaims {
  userId: number;
  userType: number;
  sessionId: string;
}

const keyOf = (secret: string) => new TextEncoder().encode(secret);

export async function signAccessToken(secret: string, claims: AccessClaims): Promise<string> {
  return new SignJWT({ typ: claims.userType, sid: claims.sessionId })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(claims.userId))
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
    .sign(keyOf(secret));
}

/** Returns null for anything but a valid, unexpired token of ours. */
export async function verifyAccessToken(secret: string, token: string): Promise<AccessClaims | null> {
  try {
    const { payload } = await jwtVerify(token, keyOf(secret), { issuer: ISSUER, algorithms: ['HS256'] });
    const userId = Number(payload.sub);
    if (!Number.isSafeInteger(userId) || typeof payload.sid !== 'string' || typeof payload.typ !== 'number') return null;
    return { userId, userType: payload.typ, sessionId: payload.sid };
  } catch {
    return null;
  }
}
