/** Whether a record (user, facility, template ...) is in use; inactive records are kept, not deleted. */
export const RECORD_STATUSES = ['ACTIVE', 'INACTIVE'] as const;
export type TRecordStatus = (typeof RECORD_STATUSES)[number];

/** Who owns a shared setting such as a tag: the whole organisation or one user. */
export const SCOPES = ['ORGANISATION', 'USER'] as const;
export type TScope = (typeof SCOPES)[number];

/** Template scopes: DEFAULT templates ship with the product and are visible to everyone. */
export const TEMPLATE_SCOPES = ['DEFAULT', 'USER', 'ORGANISATION'] as const;
export type TTemplateScope = (typeof TEMPLATE_SCOPES)[number];

/** Lifecycle of one client request: INITIATED → PENDING → FULFILLED | REJECTED. */
export const REQUEST_STATUSES = ['INITIATED', 'PENDING', 'FULFILLED', 'REJECTED'] as const;
export type TRequestStatus = (typeof REQUEST_STATUSES)[number];

/** A request in FULFILLED or REJECTED state will not change any more. */
export function isSettledRequestStatus(status: TRequestStatus): boolean {
  return status === 'FULFILLED' || status === 'REJECTED';
}
