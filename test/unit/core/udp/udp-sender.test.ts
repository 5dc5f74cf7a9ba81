import { describe, expect, it } from "vitest";
import { canonicalAddress } from "../../../../core/udp/udp-sender.ts";

describe("canonicalAddress", () => {
  it.each([
    ["10.0.0.1", "10.0.0.1"],
    ["::ffff:10.0.0.1", "10.0.0.1"],
    ["::FFFF:10.0.0.1", "10.0.0.1"],
    ["0:0:0:0:0:ffff:a00:1", "10.0.0.1"],
    ["2001:DB8:0:0::1", "2001:db8::1"],
    ["[::1]", "::1"],
    ["fe80::1%eth0", "fe80::1"],
  ])("spells %s as %s", (address, canonical) => {
    expect(canonicalAddress(address)).toBe(canonical);
  });

  it("leaves what is not an IPv6 literal as it is", () => {
    expect(canonicalAddress("qlik-node-1.example.com")).toBe("qlik-node-1.example.com");
    expect(canonicalAddress("not:an:address")).toBe("not:an:address");
  });
});
