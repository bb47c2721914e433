import type { TRole, TTemplate, TTemplateScope } from '@ris/domain';

export interface TTemplateUser {
  id: string;
  role: TRole | null;
}

/** Scopes a user may give a template they save: USER, and ORGANISATION for an admin. */
export function savableScopes(role: TRole | null | undefined): ('USER' | 'ORGANISATION')[] {
  return role === 'ADMIN' ? ['USER', 'ORGANISATION'] : ['USER'];
}

/**
 * Whether `user` may edit or delete `template` (the server's rule, so the screen offers only what
 * will succeed): DEFAULT never; ORGANISATION an admin; USER its owner or an admin.
 */
export function canChangeTemplate(
  template: Pick<TTemplate, 'scope' | 'owner_user_id'>,
  user: TTemplateUser | null,
): boolean {
  if (!user?.role || user.role === 'REFERRING_PHYSICIAN') return false;
  if (template.scope === 'DEFAULT') return false;
  if (template.scope === 'ORGANISATION') return user.role === 'ADMIN';
  return template.owner_user_id === user.id || user.role === 'ADMIN';
}

export const SCOPE_LABELS: Readonly<Record<TTemplateScope, string>> = {
  USER: 'Personal',
  ORGANISATION: 'Organisation',
  DEFAULT: 'Default',
};
