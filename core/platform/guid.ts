/** Platform object ids are GUIDs; the platform writes them in lower case. */

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * True for an 8-4-4-4-12 hexadecimal GUID in either case. (Butler refused upper
 * case, reporting such ids as invalid; the API only asks for a UUID, so both cases are
 * accepted and normalised with `normalizeGuid` before the platform sees them.)
 */
export function isGuid(value: string): boolean {
  return GUID.test(value);
}

export function normalizeGuid(value: string): string {
  return value.toLowerCase();
}
