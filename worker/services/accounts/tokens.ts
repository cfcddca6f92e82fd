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

// Imported once per isolate and secret rather than on every call (jose imports a raw key each time it is given one).
let importedKey: { secret: string; key: Promise<CryptoKey> } | undefined;

function keyOf(secret: string): Promise<CryptoKey> {
  if (importedKey?.secret !== secret) {
    const key = crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    importedKey = { secret, key };
  }
  return importedKey.key;
}

export async function signAccessToken(secret: string, claims: AccessClaims): Promise<string> {
  return new SignJWT({ typ: claims.userType, sid: claims.sessionId })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(claims.userId))
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
    .sign(await keyOf(secret));
}

/** How many verified tokens an isolate remembers (the oldest verified is forgotten first). */
const VERIFIED_TOKENS_CAP = 5_000;

// The tokens this isolate has verified under the current secret, with their claims and expiry. A customer's screens
// and tools send the same token with every call for its quarter of an hour, and checking its signature again was
// about a millisecond of the isolate's CPU on each (the bench's CPU profile). A token's claims cannot change, and
// sign-out ends its session, which every call checks in the database, so remembering one until it expires is
// the same as verifying it each time.
let verifiedTokens: { secret: string; tokens: Map<string, { claims: AccessClaims; expiresAtMs: number }> } | undefined;

/** Returns null for anything but a valid, unexpired token of ours. */
export async function verifyAccessToken(secret: string, token: string): Promise<AccessClaims | null> {
  if (verifiedTokens?.secret !== secret) verifiedTokens = { secret, tokens: new Map() };
  const { tokens } = verifiedTokens;
  const known = tokens.get(token);
  if (known && Date.now() < known.expiresAtMs) return known.claims;
  if (known) tokens.delete(token);
  const claims = await verifySignedToken(secret, token);
  if (claims) {
    if (tokens.size >= VERIFIED_TOKENS_CAP) tokens.delete(tokens.keys().next().value!);
    tokens.set(token, claims);
    return claims.claims;
  }
  return null;
}

async function verifySignedToken(secret: string, token: string): Promise<{ claims: AccessClaims; expiresAtMs: number } | null> {
  try {
    const { payload } = await jwtVerify(token, await keyOf(secret), { issuer: ISSUER, algorithms: ['HS256'] });
    const userId = Number(payload.sub);
    if (!Number.isSafeInteger(userId) || typeof payload.sid !== 'string' || typeof payload.typ !== 'number') return null;
    if (typeof payload.exp !== 'number') return null;
    return { claims: { userId, userType: payload.typ, sessionId: payload.sid }, expiresAtMs: payload.exp * 1000 };
  } catch {
    return null;
  }
}
