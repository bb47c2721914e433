import type { TUserCapabilities } from './user.schemas.ts';

/** Nothing allowed: before the signed-in user's details arrive, and after sign-out. */
export const NO_CAPABILITIES: Readonly<TUserCapabilities> = Object.freeze({
  create_order: false,
  assign_anyone: false,
  assign_self: false,
  tag_studies: false,
  use_templates: false,
  create_organisation_templates: false,
  manage_users: false,
  assignable_roles: [],
  manage_archives: false,
});
