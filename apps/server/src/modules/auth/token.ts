import { errors, jwtVerify, SignJWT } from 'jose';

/** Tokens are HS256 only; issuer and audience name Mustard's web sign-in. */
export const TOKEN_ISSUER = 'mustard';
export const TOKEN_AUDIENCE = 'mustard-web';

export interface TokenClaims {
  userId: string;
  sessionId: string;
}

export async function signToken(secret: Uint8Array, claims: TokenClaims, expiresAt: Date): Promise<string> {
  return new SignJWT({ sid: claims.sessionId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(secret);
}

/** The claims of a valid token, or null for anything forged, expired or malformed. */
export async function verifyToken(secret: Uint8Array, token: string): Promise<TokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, secret, {
      algorithms: ['HS256'],
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      requiredClaims: ['exp', 'sub', 'sid', 'iat'],
    });
    if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
    return { userId: payload.sub, sessionId: payload.sid };
  } catch (error) {
    if (error instanceof errors.JOSEError || error instanceof TypeError) return null;
    throw error;
  }
}
