import type { TTemplateScope } from '@ris/domain';
import type { TPrincipal } from '../../auth/principal.ts';

export type TTagAction = 'create' | 'tag-studies' | 'remove-worklist-tag' | 'read-user-tags';

/**
 * Decisions: every role but REFERRING_PHYSICIAN creates USER tags and tags studies it can see;
 * ORGANISATION tags are created by ADMINs only; DEFAULT tags ship with the product (never created
 * here). A worklist tag is removed by whoever put it, or by an ADMIN / FACILITY_ADMIN. Another user's
 * tags are read by ADMINs of the same organisation only.
 */
export function canTag(
  principal: TPrincipal,
  action: TTagAction,
  target: { scope?: TTemplateScope; taggerId?: string; userId?: string } = {},
): boolean {
  const staff = principal.role !== null && principal.role !== 'REFERRING_PHYSICIAN';
  switch (action) {
    case 'create':
      if (target.scope === 'ORGANISATION') return principal.role === 'ADMIN';
      return staff && target.scope === 'USER';
    case 'tag-studies':
      return staff;
    case 'remove-worklist-tag':
      return (
        target.taggerId === principal.userId ||
        principal.role === 'ADMIN' ||
        principal.role === 'FACILITY_ADMIN'
      );
    case 'read-user-tags':
      return target.userId === principal.userId || principal.role === 'ADMIN';
  }
}
