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
  template: '/template/:id',
  macro: '/macro/:id',
} as const;

/** The reporting screen of one worklist item. */
export function worklistItemPath(worklistId: string): string {
  return `/worklist/${encodeURIComponent(worklistId)}`;
}
