import { describe, expect, it } from "vitest";
import {
  createSourceValidator,
  type HostResolver,
  SOURCE_RETRY_MS,
} from "../../../../core/udp/source-validator.ts";
import { createUdpQueue } from "../../../../core/udp/udp-queue.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";
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
  const clock = createManualClock(T0);
  const sources = await createSourceValidator(
    { enable, allowedSources, label: "user_events" },
    { resolve: resolver.resolve, logger, clock },
  );
  return { sources, logger, resolver, clock };
}

/** Lets the retry's lookups (promises) settle after the clock fired it. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("createSourceValidator: a list that resolves", () => {
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
      "user_events SOURCE VALIDATION: 1 allowed sources did not resolve and were skipped (retrying every 60 s)",
    ]);
    expect(sources.accepts(from("10.0.0.9"), T0)).toBe(false);
  });

  it("treats a name that resolves to no address as unresolvable", async () => {
    const { sources, logger } = await validator(["empty", "10.0.0.1"], { empty: [] });

    expect(sources.accepts(from("10.0.0.1"), T0)).toBe(true);
    expect(logger.at("error")).toHaveLength(1);
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

describe("createSourceValidator: a list of which nothing resolves", () => {
  it("fails closed when nothing of a given list resolves: refuses every datagram, with one WARN", async () => {
    const { sources, logger } = await validator(["gone-1", "gone-2"]);

    expect(sources.enforcing).toBe(true);
    expect([from("192.0.2.1"), from("10.0.0.5"), from("::1")].map((s) => sources.accepts(s, T0))).toEqual([
      false,
      false,
      false,
    ]);
    expect(logger.at("warn")[0]).toMatchObject({
      message:
        "user_events SOURCE VALIDATION: none of the allowed sources resolved; refusing every datagram until one does (retrying every 60 s)",
      fields: { allowedSources: "gone-1, gone-2" },
    });
    expect(logger.at("warn").filter((e) => e.message.includes("none of the allowed sources"))).toHaveLength(
      1,
    );
    await sources.stop();
  });

  it("counts the datagrams it refuses while nothing resolves as dropped by source", async () => {
    const { sources, clock } = await validator(["gone-1"]);
    const queue = createUdpQueue(
      {
        name: "user_events",
        config: {
          messageQueue: { maxConcurrent: 1, maxSize: 10, backpressureThreshold: 80 },
          rateLimit: { enable: false, maxMessagesPerMinute: 600 },
          maxMessageSize: 65_507,
        },
      },
      { processor: async () => "processed" as const, sources, clock, logger: recordingLogger() },
    );

    const admissions = [1, 2, 3].map((i) =>
      queue.offer(new Uint8Array(4), from(`192.0.2.${i}`), clock.now()),
    );

    expect(admissions).toEqual(["dropped_source", "dropped_source", "dropped_source"]);
    expect(queue.counters()).toMatchObject({ received: 3, queued: 0, droppedSource: 3 });
    await queue.stop();
    await sources.stop();
  });

  it("looks a name that did not resolve up again every minute, and accepts its addresses once it does", async () => {
    const table: Record<string, string[]> = {};
    const { sources, logger, resolver, clock } = await validator(["qlik-node-1"], table);
    expect(sources.accepts(from("10.0.0.5"), T0)).toBe(false);

    clock.advance(SOURCE_RETRY_MS - 1);
    await settled();
    expect(resolver.asked).toEqual(["qlik-node-1"]);
    clock.advance(1);
    await settled();
    expect(resolver.asked).toEqual(["qlik-node-1", "qlik-node-1"]);
    expect(sources.accepts(from("10.0.0.5"), clock.now())).toBe(false);
    expect(logger.at("error")).toHaveLength(1);

    table["qlik-node-1"] = ["10.0.0.5"];
    clock.advance(SOURCE_RETRY_MS);
    await settled();

    expect(sources.accepts(from("10.0.0.5"), clock.now())).toBe(true);
    expect(sources.accepts(from("10.0.0.6"), clock.now())).toBe(false);
    expect(logger.at("info").at(-1)?.message).toBe(
      "user_events SOURCE VALIDATION: allowed sources resolved (qlik-node-1); accepting datagrams only from 1 addresses",
    );
    clock.advance(10 * SOURCE_RETRY_MS);
    await settled();
    expect(resolver.asked).toHaveLength(3);
    await sources.stop();
  });

  it("stops looking names up once stopped", async () => {
    const { sources, resolver, clock } = await validator(["gone-1"]);

    await sources.stop();
    clock.advance(5 * SOURCE_RETRY_MS);
    await settled();

    expect(resolver.asked).toEqual(["gone-1"]);
  });
});

describe("createSourceValidator: without a list, or switched off", () => {
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
});
