// The first organisation and its first administrator on a deployment that does not use the demo
// data (`npm run organisation:create`): the only way in before any administrator exists. The
// administrator gets a one-time link to choose their own password (as an invitation does); nobody
// types or sees a password here. One transaction: nothing is half-written.
import { ZTimeZone } from '@ris/domain';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  INVITATION_TTL_MINUTES,
  issueSetPasswordLink,
  type TSetPasswordLink,
} from '../../auth/invitations.ts';
import type { TDb } from '../../db/client.ts';
import { auditEvents, organisations, users } from '../../db/schema/index.ts';
import { assertEmailFree, withEmailGuard } from '../../features/users/commands/user-admin-guards.ts';
import { AppError } from '../../http/app-error.ts';

export const ZCreateOrganisationInput = z.object({
  organisation: z.string().trim().min(1, 'is required').max(200),
  /** URL-safe short name; default: from the name. */
  slug: z
    .string()
    .trim()
    .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'use lower-case letters, digits and hyphens')
    .optional(),
  timeZone: ZTimeZone.default('UTC'),
  email: z.string().trim().toLowerCase().email('must be an e-mail address'),
  firstName: z.string().trim().min(1, 'is required').max(100),
  lastName: z.string().trim().min(1, 'is required').max(100),
});
export type TCreateOrganisationInput = z.input<typeof ZCreateOrganisationInput>;

export type TCreatedOrganisation = {
  organisationId: string;
  slug: string;
  adminUserId: string;
  link: TSetPasswordLink;
};

/** 'Sunrise Imaging Ltd.' → 'sunrise-imaging-ltd'. */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63);
  return slug === '' ? 'organisation' : slug;
}

/** Validation errors name the option (`--email: must be an e-mail address`). */
export function parseCreateOrganisationInput(input: TCreateOrganisationInput) {
  const parsed = ZCreateOrganisationInput.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = String(issue?.path[0] ?? 'input').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  throw new AppError('VALIDATION_FAILED', `--${field}: ${issue?.message ?? 'invalid'}`, { field });
}

export async function createOrganisationWithAdmin(
  db: TDb,
  raw: TCreateOrganisationInput,
  options: { publicUrl: string },
): Promise<TCreatedOrganisation> {
  const input = parseCreateOrganisationInput(raw);
  const slug = input.slug ?? slugOf(input.organisation);
  return db.transaction(async (tx) => {
    const [taken] = await tx
      .select({ id: organisations.id })
      .from(organisations)
      .where(sql`lower(${organisations.slug}) = ${slug}`);
    if (taken) {
      throw new AppError('CONFLICT', `--slug: an organisation "${slug}" exists already; choose another`, {
        field: 'slug',
      });
    }
    await assertEmailFree(tx, input.email);
    const [organisation] = await tx
      .insert(organisations)
      .values({ name: input.organisation, slug, timeZone: input.timeZone })
      .returning({ id: organisations.id });
    if (!organisation) throw new Error('organisations insert returned nothing');
    const [admin] = await withEmailGuard(() =>
      tx
        .insert(users)
        .values({
          email: input.email,
          passwordHash: null,
          role: 'ADMIN',
          firstName: input.firstName,
          lastName: input.lastName,
          displayName: `${input.firstName} ${input.lastName}`,
          organisationId: organisation.id,
        })
        .returning({ id: users.id }),
    );
    if (!admin) throw new Error('users insert returned nothing');
    const link = await issueSetPasswordLink(tx, {
      publicUrl: options.publicUrl,
      userId: admin.id,
      ttlMinutes: INVITATION_TTL_MINUTES,
      ip: null,
    });
    await tx.insert(auditEvents).values({
      action: 'user.created',
      actorUserId: null,
      organisationId: organisation.id,
      entityType: 'user',
      entityId: admin.id,
      data: { role: 'ADMIN', by: 'npm run organisation:create' },
    });
    return { organisationId: organisation.id, slug, adminUserId: admin.id, link };
  });
}
