import { hash, verify } from '@node-rs/argon2';

// @node-rs/argon2 defaults to argon2id with OWASP's parameters (19 MiB, 2 passes).

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/**
 * A hash of a password nobody has, verified when the email is unknown so that a wrong email
 * costs the same time as a wrong password (security.md item 12).
 */
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(storedHash: string | null | undefined, password: string): Promise<boolean> {
  if (!storedHash) {
    dummyHash ??= hash('mustard-no-such-user-password');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(storedHash, password).catch(() => false);
}
