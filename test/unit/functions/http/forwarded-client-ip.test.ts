import { describe, expect, it } from "vitest";
import { createClientAddress } from "../../../../functions/http/forwarded-client-ip.ts";

describe("createClientAddress", () => {
  const behind = createClientAddress(["10.0.0.0/8", "192.0.2.10", "fd00::/8"]);

  it.each([
    ["a trusted proxy's client", "10.1.2.3", "203.0.113.9", "203.0.113.9"],
    [
      "the first untrusted address from the right",
      "10.1.2.3",
      "198.51.100.7, 203.0.113.9, 10.9.9.9",
      "203.0.113.9",
    ],
    ["an entry with a port", "192.0.2.10", "203.0.113.9:51234", "203.0.113.9"],
    ["an IPv6 entry in brackets", "fd00::1", "[2001:db8::5]:443", "2001:db8::5"],
    ["a dual-stack listener's IPv4-mapped peer", "::ffff:10.1.2.3", "203.0.113.9", "203.0.113.9"],
    ["the leftmost when every hop is a trusted proxy", "10.1.2.3", "10.7.7.7, 10.8.8.8", "10.7.7.7"],
    ["the trusted hop before an entry that is not an address", "10.1.2.3", "unknown, 10.8.8.8", "10.8.8.8"],
    ["the peer when the header is empty", "10.1.2.3", "", "10.1.2.3"],
  ])("takes %s", (_name, peer, forwardedFor, client) => {
    expect(behind(peer, forwardedFor)).toBe(client);
  });

  it("ignores X-Forwarded-For from a peer that is not a trusted proxy", () => {
    expect(behind("203.0.113.50", "10.1.2.3")).toBe("203.0.113.50");
    expect(behind("192.0.2.11", "198.51.100.7")).toBe("192.0.2.11");
  });

  it("takes the peer when no proxy is trusted (the default)", () => {
    expect(createClientAddress([])("127.0.0.1", "203.0.113.9")).toBe("127.0.0.1");
  });

  it("takes the peer when there is no header", () => {
    expect(behind("10.1.2.3", undefined)).toBe("10.1.2.3");
  });
});
