import type { TTemplateAbilities, TTemplateScope } from '@ris/domain';
import type { TPrincipal } from '../../auth/principal.ts';

export type TTemplateAction = 'use' | 'create' | 'change';

/**
 * Decisions on templates (visibility itself is decided in SQL, see templates.queries):
 * - every role but REFERRING_PHYSICIAN uses templates (reads, lists, owns USER templates);
 * - ORGANISATION templates are created and changed by ADMINs only;
 * - a USER template is changed (edited, deleted) by its owner or an ADMIN of its organisation;
 * - DEFAULT templates ship with the product and are read-only for everyone.
 */
export function canTemplate(
  principal: TPrincipal,
  action: TTemplateAction,
  target: { scope: TTemplateScope; ownerUserId?: string | null } = { scope: 'USER' },
): boolean {
  const staff = principal.role !== null && principal.role !== 'REFERRING_PHYSICIAN';
  if (!staff) return false;
  if (action === 'use') return true;
  switch (target.scope) {
    case 'DEFAULT':
      return false;
    case 'ORGANISATION':
      return principal.role === 'ADMIN';
    case 'USER':
      return action === 'create' || target.ownerUserId === principal.userId || principal.role === 'ADMIN';
  }
}

/** What the caller may do with a template they can open (sent with it as ZTemplate.abilities). */
export function templateAbilities(
  principal: TPrincipal,
  template: { scope: TTemplateScope; ownerUserId: string | null },
): TTemplateAbilities {
  return { change: canTemplate(principal, 'change', template) };
}

/** Why canTemplate refused, for the person reading the 403. */
export type TTemplateRefusal = { message: string; field?: 'scope' };

/** Why the action is refused, and the request field to blame when the refusal is about one. */
export function templateRefusal(action: TTemplateAction, scope: TTemplateScope): TTemplateRefusal {
  if (action === 'use') return { message: 'You may not use report templates' };
  if (scope === 'DEFAULT') return { message: 'Default templates are read-only' };
  if (scope === 'ORGANISATION') {
    return action === 'create'
      ? { message: 'scope: only an administrator may create organisation templates', field: 'scope' }
      : { message: 'Only an administrator may change organisation templates' };
  }
  return { message: 'You may change only your own templates' };
}
