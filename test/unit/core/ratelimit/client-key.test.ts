import { describe, expect, it } from "vitest";
import { clientKeyOf } from "../../../../core/ratelimit/client-key.ts";

describe("clientKeyOf", () => {
  it.each([
    ["203.0.113.5", "203.0.113.5"],
    ["::ffff:203.0.113.5", "203.0.113.5"],
    ["::FFFF:cb00:7105", "203.0.113.5"],
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:db8:1:2::99", "2001:db8:1:2::/64"],
    ["2001:0DB8:0001:0002:ffff:0:0:1", "2001:db8:1:2::/64"],
    ["[2001:db8::1]", "2001:db8:0:0::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["not-an-ip", "not-an-ip"],
    ["1.2.3.999", "1.2.3.999"],
  ])("keys %s as %s", (ip, key) => {
    expect(clientKeyOf(ip)).toBe(key);
  });

  it("puts two addresses of one /64 under one key and different /64s under different keys", () => {
    expect(clientKeyOf("2001:db8:a:b::1")).toBe(clientKeyOf("2001:db8:a:b:ffff::2"));
    expect(clientKeyOf("2001:db8:a:b::1")).not.toBe(clientKeyOf("2001:db8:a:c::1"));
  });
});
