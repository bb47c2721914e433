import type { TTemplateScope } from '@ris/domain';

/** What the screens call each template scope. */
export const SCOPE_LABELS: Readonly<Record<TTemplateScope, string>> = {
  USER: 'Personal',
  ORGANISATION: 'Organisation',
  DEFAULT: 'Default',
};

/** Scopes a user may give a template they save: USER, and ORGANISATION when the server says they may. */
export function savableScopes(mayCreateOrganisationTemplates: boolean): ('USER' | 'ORGANISATION')[] {
  return mayCreateOrganisationTemplates ? ['USER', 'ORGANISATION'] : ['USER'];
}
