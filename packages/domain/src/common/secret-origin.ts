// A password, token or access key the server stores for a service (an image archive, a speech engine)
// is sent with every call to the service's address; it never comes back out through the API.
/** The origin (scheme, host and port) of an address, or the text itself when it is not a URL. */
function originOf(address: string): string {
  try {
    return new URL(address).origin;
  } catch {
    return address;
  }
}

/**
 * Whether a stored secret may stay when its service's addresses change from `before` to `after`: only
 * when every address after has the origin of one before. A kept secret goes to the new address on the
 * next call, so otherwise an administrator could read a password back by pointing its archive at a
 * server of their own; it is given again instead.
 */
export function secretMayFollow(
  before: readonly (string | null)[],
  after: readonly (string | null)[],
): boolean {
  const trusted = new Set(before.flatMap((address) => (address === null ? [] : [originOf(address)])));
  return after.every((address) => address === null || trusted.has(originOf(address)));
}

/** The message of a secret kept across an address change (secretMayFollow), after the field's name. */
export const SECRET_GIVEN_AGAIN =
  'must be given again when the address changes (it is sent only to the address it was given for)';
