import { createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { resolveTokenSecret, TOKEN_SECRET_FILE } from '../../auth/token-secret.ts';

/**
 * A fingerprint of the identity token secret (AUTH_TOKEN_SECRET, or DATA_DIR/auth-token-secret), or
 * null when there is none yet. Backups leave the secret out on purpose: it seals the archive
 * passwords and speech keys kept in the database (integrations/sealed-secrets.ts), so a backup alone
 * must not open them. The fingerprint lets a restore say when the target lacks the same secret.
 */
export async function tokenSecretCheck(configured: string | null, dataDir: string): Promise<string | null> {
  if (!configured && !existsSync(path.join(dataDir, TOKEN_SECRET_FILE))) return null;
  const { secret } = await resolveTokenSecret(configured, dataDir);
  return createHmac('sha256', secret).update('ris backup: token secret check').digest('hex').slice(0, 16);
}

/** What a restore says when the target will not have the secret the backup's database was sealed with. */
export function tokenSecretWarning(backup: string | null, target: string | null): string | null {
  if (backup === null || backup === target) return null;
  return target === null
    ? 'this DATA_DIR has no token secret: set AUTH_TOKEN_SECRET (or copy auth-token-secret into DATA_DIR) as it was when the backup was made before starting, or archive passwords and speech keys must be entered again and everyone signs in again'
    : 'the token secret here (AUTH_TOKEN_SECRET or DATA_DIR/auth-token-secret) differs from the one of the backed-up server: use that one, or archive passwords and speech keys must be entered again and everyone signs in again';
}
