import { hash, verify } from '@node-rs/argon2';

/**
 * argon2id with OWASP's recommended floor (19 MiB memory, 2 passes, 1 lane). Parameters are stored in
 * each hash, so they can be raised later without breaking existing passwords. The library's default
 * algorithm is argon2id (its const enum cannot be imported under verbatimModuleSyntax); the test
 * checks the `$argon2id$` prefix.
 */
const ARGON2_OPTIONS = {
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export async function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/** False for a wrong password and for a malformed stored hash; never throws on bad input. */
export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}
