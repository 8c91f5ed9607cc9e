import { createSecretKey, type KeyObject } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';

/** Tokens are HS256 only; issuer and audience name Mustard's web sign-in. */
export const TOKEN_ISSUER = 'mustard';
export const TOKEN_AUDIENCE = 'mustard-web';

export interface TokenClaims {
  userId: string;
  sessionId: string;
}

/** One key object per secret: importing the key on every request costs more than the HMAC. */
const keys = new WeakMap<Uint8Array, KeyObject>();
function keyFor(secret: Uint8Array): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(secret);
    keys.set(secret, key);
  }
  return key;
}

/**
 * Tokens already verified, until their expiry. A hit needs the identical token string, so it
 * proves exactly what verifying again would; the session itself is still checked each time.
 */
const verifiedBySecret = new WeakMap<Uint8Array, Map<string, { claims: TokenClaims; exp: number }>>();
const VERIFIED_CAPACITY = 20_000;

export async function signToken(secret: Uint8Array, claims: TokenClaims, expiresAt: Date): Promise<string> {
  return new SignJWT({ sid: claims.sessionId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(keyFor(secret));
}

/** The claims of a valid token, or null for anything forged, expired or malformed. */
export async function verifyToken(secret: Uint8Array, token: string): Promise<TokenClaims | null> {
  let verified = verifiedBySecret.get(secret);
  if (!verified) {
    verified = new Map();
    verifiedBySecret.set(secret, verified);
  }
  const known = verified.get(token);
  if (known && known.exp * 1000 > Date.now()) return known.claims;
  try {
    const { payload } = await jwtVerify(token, keyFor(secret), {
      algorithms: ['HS256'],
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      requiredClaims: ['exp', 'sub', 'sid', 'iat'],
    });
    if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || typeof payload.exp !== 'number') return null;
    const claims = { userId: payload.sub, sessionId: payload.sid };
    if (verified.size >= VERIFIED_CAPACITY) verified.clear();
    verified.set(token, { claims, exp: payload.exp });
    return claims;
  } catch (error) {
    if (error instanceof errors.JOSEError || error instanceof TypeError) return null;
    throw error;
  }
}
