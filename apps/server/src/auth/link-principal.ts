// The user a signed link was made for, as a principal: links work while their user is still an
// active member of the record's organisation, and the caller then re-reads that user's scope like
// any request's (so a link stops working when the user loses access to the record).
import { eq } from 'drizzle-orm';
import type { TDbOrTx } from '../db/client.ts';
import { radiologistDetails, users } from '../db/schema/index.ts';
import type { TPrincipal } from './principal.ts';

/** The link's user as a principal while active in `organisationId`; null otherwise. */
export async function linkPrincipal(
  db: TDbOrTx,
  userId: string,
  organisationId: string,
): Promise<TPrincipal | null> {
  const [user] = await db
    .select({ user: users, userType: radiologistDetails.userType })
    .from(users)
    .leftJoin(radiologistDetails, eq(radiologistDetails.userId, users.id))
    .where(eq(users.id, userId));
  if (
    !user ||
    user.user.status !== 'ACTIVE' ||
    user.user.organisationId !== organisationId ||
    !user.user.role
  ) {
    return null;
  }
  return {
    userId,
    email: user.user.email,
    organisationId,
    role: user.user.role,
    userType: user.user.role === 'RADIOLOGIST' ? (user.userType ?? 'RADIOLOGIST') : null,
    facilityIds: [],
    sessionId: '',
    issuedAt: 0,
  };
}
