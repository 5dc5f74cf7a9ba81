/**
 * Email addresses as alerts use them: a recipient is a bare address (`ops@example.com`), a
 * sender may carry a display name (`Qlik Sense <noreply@example.com>`). The check is the
 * practical one mail servers apply to a recipient (one `@`, a dotted domain, no spaces or angle
 * brackets), not the whole RFC 5322 grammar: a value the server would refuse is caught when the
 * configuration is read or the address is taken from a custom property, not at send time.
 */

const ADDRESS =
  /^[^\s@<>(),;:"[\]\\]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

/** An address is at most 254 characters (the SMTP path limit less its angle brackets). */
const MAX_ADDRESS_LENGTH = 254;

export function isEmailAddress(text: string): boolean {
  return text.length <= MAX_ADDRESS_LENGTH && ADDRESS.test(text);
}

const NAMED = /^([^<>]*)<([^<>]+)>$/;

/** `address` or `Display Name <address>` (the display name may be quoted). */
export function isSenderAddress(text: string): boolean {
  const trimmed = text.trim();
  const named = NAMED.exec(trimmed);
  return named === null ? isEmailAddress(trimmed) : isEmailAddress((named[2] ?? "").trim());
}

/** The form addresses are compared and rate-limited by: trimmed and lower-cased. */
export function addressKey(address: string): string {
  return address.trim().toLowerCase();
}
