/**
 * The Qlik-Signature check: the hex HMAC-SHA256 of the raw body with the webhook's secret, the
 * published test vector, either case of hex, and everything else refused.
 */
import { describe, expect, it } from "vitest";
import { createSignatureCheck, signWebhookBody } from "../../../../core/qlik-cloud/webhook-signature.ts";

// A test vector computed independently (Python's hmac) from a body as Qlik sends it, no trailing newline.
const SECRET = "steward-test-secret-0123456789abcdef";
const BODY =
  '{"id":"0e9f2c1a-7d1b-4c55-9d0e-3a6b9f1c2d4e","type":"com.qlik.v1.reload.finished","source":"com.qlik/reloads","specversion":"1.0","time":"2026-12-05T08:15:42Z","tenantid":"UkeLb6ICti8OA8f3LueRI5kVNtuHc15f","data":{"id":"6751a3f0c2b4e81a9d0f1234","appId":"116dbfae-7fb9-4983-8e23-5ccd8c508722","userId":"FyPG6xWp6prDU6BXQ3g7LY9gWR_YRkkx","succeeded":false,"status":"FAILED"}}';
const SIGNATURE = "eb2afbfdb91ddeb834ac784bef6bab1cdefa333fbeeb1f48b02304d595664cfc";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("Qlik-Signature", () => {
  const check = createSignatureCheck(SECRET);

  it("matches the published test vector, in lower and upper case hex", () => {
    expect(BODY).toHaveLength(374);
    expect(signWebhookBody(BODY, SECRET)).toBe(SIGNATURE);
    expect(check(bytes(BODY), SIGNATURE)).toBe(true);
    expect(check(bytes(BODY), SIGNATURE.toUpperCase())).toBe(true);
  });

  it("is checked on the bytes as received: the same JSON written otherwise does not match", () => {
    const reserialised = JSON.stringify(JSON.parse(BODY), null, 1);
    expect(check(bytes(reserialised), SIGNATURE)).toBe(false);
    expect(check(bytes(`${BODY}\n`), SIGNATURE)).toBe(false);
  });

  it("refuses a missing, empty, prefixed, truncated or other secret's signature", () => {
    for (const signature of [undefined, "", `sha256=${SIGNATURE}`, SIGNATURE.slice(0, 63), "zz".repeat(32)]) {
      expect(check(bytes(BODY), signature)).toBe(false);
    }
    expect(createSignatureCheck(`${SECRET}x`)(bytes(BODY), SIGNATURE)).toBe(false);
  });
});
