import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/*
 * Secrets Mustard keeps for others (an external sign-in provider's client secret), sealed at
 * rest with AES-256-GCM: a copy of the database alone gives none of them away. The key is
 * derived from the server's secrets key (config `secretsKey`: SECRETS_KEY, or the one generated
 * into the data directory) for this use alone. Each sealed value is bound to what it is for
 * (`purpose`, e.g. the domain): a secret copied onto another row does not open there.
 */

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

const keys = new WeakMap<Uint8Array, Buffer>();

function sealingKey(secretsKey: Uint8Array): Buffer {
  let key = keys.get(secretsKey);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secretsKey, new Uint8Array(0), 'mustard sealed secrets v1', 32));
    keys.set(secretsKey, key);
  }
  return key;
}

/** `v1.<iv>.<ciphertext>.<tag>`, each base64url. */
export function sealSecret(secretsKey: Uint8Array, purpose: string, plain: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(secretsKey), iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(purpose, 'utf8'));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [VERSION, iv, body, cipher.getAuthTag()].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

/** The secret, or null when the value was not sealed by this key for this purpose (or was altered). */
export function openSecret(secretsKey: Uint8Array, purpose: string, sealed: string): string | null {
  const [version, iv, body, tag] = sealed.split('.');
  if (version !== VERSION || iv === undefined || body === undefined || tag === undefined) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealingKey(secretsKey), Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(purpose, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
