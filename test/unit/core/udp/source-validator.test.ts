import { describe, expect, it } from "vitest";
import { createSourceValidator, type HostResolver } from "../../../../core/udp/source-validator.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

const T0 = Date.UTC(2026, 0, 1);
const from = (address: string, port = 50_000) => ({ address, port });

/** A resolver answering from a table; a name not in it fails like an unknown name. */
function tableResolver(table: Record<string, string[]>) {
  const asked: string[] = [];
  const resolve: HostResolver = async (name) => {
    asked.push(name);
    const addresses = table[name];
    if (addresses === undefined) throw new Error(`getaddrinfo ENOTFOUND ${name}`);
    return addresses;
  };
  return { resolve, asked };
}

async function validator(allowedSources: string[], table: Record<string, string[]> = {}, enable = true) {
  const logger = recordingLogger();
  const resolver = tableResolver(table);
  const sources = await createSourceValidator(
    { enable, allowedSources, label: "user_events" },
    { resolve: resolver.resolve, logger },
  );
  return { sources, logger, resolver };
}

describe("createSourceValidator", () => {
  it("accepts literal addresses as they are, without resolving them", async () => {
    const { sources, resolver } = await validator(["10.0.0.1", "2001:db8::7", "[2001:db8::8]"]);

    expect(sources.enforcing).toBe(true);
    expect(sources.accepts(from("10.0.0.1"), T0)).toBe(true);
    expect(sources.accepts(from("2001:db8::7"), T0)).toBe(true);
    expect(sources.accepts(from("2001:db8::8"), T0)).toBe(true);
    expect(sources.accepts(from("10.0.0.2"), T0)).toBe(false);
    expect(resolver.asked).toEqual([]);
  });

  it("accepts every IPv4 and IPv6 address a name resolves to, resolving it once at start", async () => {
    const { sources, resolver } = await validator(["qlik-node-1"], {
      "qlik-node-1": ["10.0.0.5", "2001:db8::5"],
    });

    const answers = [from("10.0.0.5"), from("2001:db8::5"), from("10.0.0.6")].map((s) =>
      sources.accepts(s, T0),
    );

    expect(answers).toEqual([true, true, false]);
    expect(resolver.asked).toEqual(["qlik-node-1"]);
  });

  it("accepts an IPv4 sender reported as IPv4-mapped IPv6, and IPv6 spelt differently", async () => {
    const { sources } = await validator(["10.0.0.5", "2001:DB8:0:0::9"]);

    expect(sources.accepts(from("::ffff:10.0.0.5"), T0)).toBe(true);
    expect(sources.accepts(from("2001:db8::9"), T0)).toBe(true);
    expect(sources.accepts(from("::ffff:10.0.0.6"), T0)).toBe(false);
  });

  it("logs an unresolvable name, skips it and keeps validating with the rest", async () => {
    const { sources, logger } = await validator(["gone.example.com", "qlik-node-1"], {
      "qlik-node-1": ["10.0.0.5"],
    });

    expect(sources.enforcing).toBe(true);
    expect(sources.accepts(from("10.0.0.5"), T0)).toBe(true);
    expect(logger.at("error").map((e) => e.message)).toEqual([
      'user_events SOURCE VALIDATION: cannot resolve allowed source "gone.example.com"; skipped',
    ]);
    expect(logger.at("error")[0]?.fields).toEqual({
      reason: "Error: getaddrinfo ENOTFOUND gone.example.com",
    });
    expect(logger.at("warn").map((e) => e.message)).toEqual([
      "user_events SOURCE VALIDATION: 1 allowed sources did not resolve and were skipped",
    ]);
    expect(sources.accepts(from("10.0.0.9"), T0)).toBe(false);
  });

  it("treats a name that resolves to no address as unresolvable", async () => {
    const { sources, logger } = await validator(["empty", "10.0.0.1"], { empty: [] });

    expect(sources.accepts(from("10.0.0.1"), T0)).toBe(true);
    expect(logger.at("error")).toHaveLength(1);
  });

  it("fails open with a WARN when nothing resolves", async () => {
    const { sources, logger } = await validator(["gone-1", "gone-2"]);

    expect(sources.enforcing).toBe(false);
    expect(sources.accepts(from("192.0.2.1"), T0)).toBe(true);
    expect(logger.at("warn").map((e) => e.message)).toEqual([
      "user_events SOURCE VALIDATION: none of the allowed sources resolved; accepting every source",
    ]);
  });

  it("fails open with a WARN when validation is on and the list is empty", async () => {
    const { sources, logger } = await validator([]);

    expect(sources.enforcing).toBe(false);
    expect(sources.accepts(from("192.0.2.1"), T0)).toBe(true);
    expect(logger.at("warn")).toHaveLength(1);
  });

  it("accepts everyone without resolving or logging when validation is off", async () => {
    const { sources, logger, resolver } = await validator(
      ["qlik-node-1"],
      { "qlik-node-1": ["10.0.0.5"] },
      false,
    );

    expect(sources.enforcing).toBe(false);
    expect(sources.accepts(from("192.0.2.1"), T0)).toBe(true);
    expect(resolver.asked).toEqual([]);
    expect(logger.entries).toEqual([]);
  });

  it("logs a rejection at WARN once per sender per minute and at DEBUG otherwise", async () => {
    const { sources, logger } = await validator(["10.0.0.1"]);
    logger.entries.length = 0;

    sources.accepts(from("10.0.0.8", 1111), T0);
    sources.accepts(from("10.0.0.8", 1112), T0 + 1000);
    sources.accepts(from("10.0.0.9", 2222), T0 + 2000);
    sources.accepts(from("10.0.0.8", 1113), T0 + 59_999);
    sources.accepts(from("10.0.0.8", 1114), T0 + 60_000);

    expect(logger.entries.map((e) => [e.level, e.message, e.fields])).toEqual([
      [
        "warn",
        "user_events SOURCE VALIDATION: Rejected message from unauthorized source 10.0.0.8:1111",
        undefined,
      ],
      [
        "debug",
        "user_events SOURCE VALIDATION: Rejected message from unauthorized source 10.0.0.8:1112",
        undefined,
      ],
      [
        "warn",
        "user_events SOURCE VALIDATION: Rejected message from unauthorized source 10.0.0.9:2222",
        undefined,
      ],
      [
        "debug",
        "user_events SOURCE VALIDATION: Rejected message from unauthorized source 10.0.0.8:1113",
        undefined,
      ],
      [
        "warn",
        "user_events SOURCE VALIDATION: Rejected message from unauthorized source 10.0.0.8:1114",
        { heldBackSinceLastWarning: 2 },
      ],
    ]);
  });
});
