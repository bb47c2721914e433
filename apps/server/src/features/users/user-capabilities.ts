// What the signed-in user may do at all, before choosing a record: each answer is the policy of the
// feature that owns the action, asked without a record. Sent on their own GET /user/details.
import type { TUserCapabilities } from '@ris/domain';
import type { TPrincipal } from '../../auth/principal.ts';
import { canTag } from '../tags/tags.policy.ts';
import { canTemplate } from '../templates/templates.policy.ts';
import { canWorklist } from '../studies/study.policy.ts';
import { canArchive } from '../pacs/archives/archives.policy.ts';
import { administersUsers, assignableRoles } from './users.policy.ts';

export function userCapabilities(principal: TPrincipal): TUserCapabilities {
  return {
    create_order: canWorklist(principal, 'create-order'),
    assign_anyone: canWorklist(principal, 'assign-anyone'),
    assign_self: canWorklist(principal, 'assign-self'),
    tag_studies: canTag(principal, 'tag-studies'),
    use_templates: canTemplate(principal, 'use'),
    create_organisation_templates: canTemplate(principal, 'create', { scope: 'ORGANISATION' }),
    manage_users: administersUsers(principal),
    assignable_roles: [...assignableRoles(principal)],
    manage_archives: canArchive(principal, 'manage'),
  };
}
