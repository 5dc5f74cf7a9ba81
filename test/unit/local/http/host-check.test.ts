import { describe, expect, it } from "vitest";
import { createHostCheck, hostNameOf } from "../../../../local/http/host-check.ts";

describe("hostNameOf", () => {
  it.each([
    ["Qlik-Ops.Corp.Local:8181", "qlik-ops.corp.local"],
    ["qlik-ops.corp.local.", "qlik-ops.corp.local"],
    ["[::1]:8081", "::1"],
    ["[fe80::1]", "fe80::1"],
    [" 10.1.2.3:80 ", "10.1.2.3"],
  ])("takes the name of %s", (header, name) => {
    expect(hostNameOf(header)).toBe(name);
  });
});

describe("createHostCheck", () => {
  const onWildcard = createHostCheck({ host: "0.0.0.0", allowedHosts: ["qlik-ops.corp.local"] });

  it.each([
    "localhost",
    "localhost:8081",
    "127.0.0.1",
    "[::1]",
    "192.0.2.7:8181",
    "qlik-ops.corp.local:8181",
  ])("answers %s", (host) => {
    expect(onWildcard(host)).toBe(true);
  });

  it.each([
    "attacker.example",
    "0.0.0.0.attacker.example",
    "127.0.0.1.nip.io",
    "ops.corp.local",
    "qlik-ops.corp.local.attacker.example",
    "",
  ])("refuses %s", (host) => {
    expect(onWildcard(host)).toBe(false);
  });

  it("answers the name it listens on, and a request without Host", () => {
    const check = createHostCheck({ host: "steward.corp.local" });

    expect(check("steward.corp.local:8081")).toBe(true);
    expect(check(undefined)).toBe(true);
    expect(check("other.corp.local")).toBe(false);
  });

  it("decides again for a refused value after allowed ones (only allowed values are remembered)", () => {
    const check = createHostCheck({ host: "127.0.0.1" });

    expect(check("localhost:1")).toBe(true);
    expect(check("attacker.example")).toBe(false);
    expect(check("localhost:1")).toBe(true);
    expect(check("attacker.example")).toBe(false);
  });
});
