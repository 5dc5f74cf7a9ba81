/**
 * The `Qlik-Signature` of a webhook delivery: the lower-case hex HMAC-SHA256 of the request body's
 * raw bytes, keyed with the webhook's secret as UTF-8, with no prefix, timestamp or delimiter.
 * It is checked on the bytes exactly as received, before anything parses them (parsing and
 * serialising again would change the bytes), and compared in constant time. Qlik's own example
 * compares the text as is, while deliveries have been seen with upper-case hex; the hex is decoded
 * first, so either case matches. There is no signed timestamp, hence no replay window to check:
 * a replayed delivery is a duplicate, and de-duplication handles it.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** The header Qlik sends the signature in (HTTP header names are case-insensitive). */
export const SIGNATURE_HEADER = "qlik-signature";

const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;

/** The signature Qlik computes for `body` with `secret`: what a sender puts in the header. */
export function signWebhookBody(body: Uint8Array | string, secret: string): string {
  return createHmac("sha256", secret).update(body).digest("hex");
}

/** A checker for one secret; true only for the body's own signature. */
export function createSignatureCheck(
  secret: string,
): (body: Uint8Array, signature: string | undefined) => boolean {
  return function signatureMatches(body, signature) {
    const expected = createHmac("sha256", secret).update(body).digest();
    const given = signature?.trim();
    // Not a SHA-256 in hex: refused without comparing; its length and form tell nothing of the secret.
    if (given === undefined || !HEX_SHA256.test(given)) return false;
    return timingSafeEqual(Buffer.from(given, "hex"), expected);
  };
}
