import { and, eq } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client.ts';
import { referringPhysicians } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';

/** A referring physician of the caller's organisation (else 404 naming the field). */
export async function requireReferringPhysician(db: TDbOrTx, organisationId: string, id: string) {
  const [physician] = await db
    .select({ id: referringPhysicians.id, name: referringPhysicians.name })
    .from(referringPhysicians)
    .where(and(eq(referringPhysicians.id, id), eq(referringPhysicians.organisationId, organisationId)));
  if (!physician) {
    throw new AppError('NOT_FOUND', 'referring_physician_fk: referring physician not found', {
      field: 'referring_physician_fk',
    });
  }
  return physician;
}
