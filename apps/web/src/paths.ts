import { EMAIL_LINK_TOKEN_PARAM, PASSWORD_RESET_TOKEN_PARAM, type TRole } from '@ris/domain';

/** Route paths of the specification (§2), in one place for links and redirects. */
export const PATHS = {
  login: '/login',
  signup: '/signup',
  forgotPassword: '/forgot-password',
  home: '/',
  worklist: '/worklist',
  orders: '/orders',
  worklistItem: '/worklist/:worklistId',
  reportFinder: '/report-finder',
  organisation: '/organisation',
  profile: '/profile',
  support: '/support',
  templates: '/templates',
  template: '/template/:id',
  macros: '/macros',
  macro: '/macro/:id',
} as const;

export type TAppPath = (typeof PATHS)[keyof typeof PATHS];

/**
 * Query parameters of the links the server puts in e-mails: a password reset opens
 * `/forgot-password?token=…`, an e-mail sign-in link opens `/login?email_link_token=…`. The page
 * load does the POST, so a mail scanner that only GETs the HTML consumes nothing. The names are the
 * server's (@ris/domain); paths.test.ts checks its link paths are these routes.
 */
export const AUTH_LINK_PARAMS = {
  passwordResetToken: PASSWORD_RESET_TOKEN_PARAM,
  emailLinkToken: EMAIL_LINK_TOKEN_PARAM,
} as const;

/**
 * Routes that only some roles may open (spec §2: "routes may list allowed roles"). Every other
 * authenticated route is open to any signed-in user. The router and the navigation both read this.
 */
/** Roles that write reports, and so use templates and macros (referring physicians do not). */
const REPORT_AUTHOR_ROLES: readonly TRole[] = ['ADMIN', 'FACILITY_ADMIN', 'RADIOLOGIST', 'TRANSCRIPTIONIST'];

export const ROUTE_ALLOWED_ROLES: Readonly<Partial<Record<TAppPath, readonly TRole[]>>> = {
  [PATHS.organisation]: ['ADMIN', 'FACILITY_ADMIN'],
  [PATHS.templates]: REPORT_AUTHOR_ROLES,
  [PATHS.template]: REPORT_AUTHOR_ROLES,
  [PATHS.macros]: REPORT_AUTHOR_ROLES,
  [PATHS.macro]: REPORT_AUTHOR_ROLES,
};

/** The roles allowed on `path`, or undefined when any signed-in user may open it. */
export function allowedRolesFor(path: string): readonly TRole[] | undefined {
  return ROUTE_ALLOWED_ROLES[path as TAppPath];
}

/** The reporting screen of one worklist item. */
export function worklistItemPath(worklistId: string): string {
  return `/worklist/${encodeURIComponent(worklistId)}`;
}

/** The `:id` of /template/:id and /macro/:id that opens an empty form to create a record. */
export const NEW_RECORD_ID = 'new';

/** The editor of one template (`NEW_RECORD_ID` creates one). */
export function templatePath(id: string): string {
  return `/template/${encodeURIComponent(id)}`;
}

/** The editor of one macro (`NEW_RECORD_ID` creates one). */
export function macroPath(id: string): string {
  return `/macro/${encodeURIComponent(id)}`;
}
