import { describe, expect, it } from "vitest";
import { dnsHostResolver } from "../../../../../core/adapters/local/dns-host-resolver.ts";

describe("dnsHostResolver", () => {
  it("resolves a name to its addresses through the system resolver", async () => {
    const addresses = await dnsHostResolver("localhost");

    expect(addresses.length).toBeGreaterThan(0);
    expect(addresses.every((address) => address === "::1" || address.startsWith("127."))).toBe(true);
  });

  it("rejects for a name that cannot exist", async () => {
    // RFC 6761: names under .invalid never resolve.
    await expect(dnsHostResolver("steward-test.invalid")).rejects.toThrow();
  });
});
