import { describe, expect, it } from "vitest";
import { InvalidVirtualProxyError, virtualProxyPrefix } from "../../../../core/platform/virtual-proxy.ts";

describe("virtualProxyPrefix", () => {
  it.each([
    ["/", ""],
    ["", ""],
    ["/hdr", "/hdr"],
    ["hdr", "/hdr"],
    ["/hdr/", "/hdr"],
    [" /sales-eu_2 ", "/sales-eu_2"],
  ])("turns %j into %j", (configured, prefix) => {
    expect(virtualProxyPrefix(configured)).toBe(prefix);
  });

  it.each(["/a/b", "hdr?x=1", "h dr", "hdr#x", "..", "%2e", "ü"])("refuses %j", (configured) => {
    expect(() => virtualProxyPrefix(configured)).toThrow(InvalidVirtualProxyError);
    expect(() => virtualProxyPrefix(configured)).toThrow(/is not a prefix/);
  });
});
