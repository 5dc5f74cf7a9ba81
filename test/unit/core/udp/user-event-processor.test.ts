import { describe, expect, it } from "vitest";
import { integerField } from "../../../../core/shared/line-protocol.ts";
import { createEventCounts } from "../../../../core/udp/event-counts.ts";
import { ScrambleKeyError } from "../../../../core/udp/scramble.ts";
import {
  createUserEventProcessor,
  type UserEventProcessorDeps,
} from "../../../../core/udp/user-event-processor.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import {
  APP_ID,
  appNames,
  bytes,
  platformEventsConfig,
  recordingDestinations,
  SCRAMBLE_KEY,
  USER_CONNECTION,
  USER_SESSION,
  userEventsConfig,
} from "./udp-fixtures.ts";

const RECEIVED = Date.UTC(2026, 0, 1, 12);

function setup(userEvents: Record<string, unknown> = {}, overrides: Partial<UserEventProcessorDeps> = {}) {
  const destinations = recordingDestinations();
  const logger = recordingLogger();
  const clock = createManualClock();
  const eventCounts = createEventCounts({
    version: 3,
    platformEvents: platformEventsConfig({ eventCount: { enable: true } }),
  });
  const process = createUserEventProcessor({
    userEvents: userEventsConfig({
      enable: true,
      sendToTimeseriesdb: { enable: true },
      sendToMQTT: { enable: true },
      sendToObsPlatform: { enable: true, scramble: false },
      ...userEvents,
    }),
    timeseriesdbConfig: { enable: true, version: 3 },
    mqttConfig: { enable: true },
    obsPlatform: { enable: true },
    appNames: appNames({ [APP_ID]: "Sales" }),
    eventCounts,
    destinations,
    scrambleKey: SCRAMBLE_KEY,
    logger,
    clock,
    ...overrides,
  });
  const counted = () =>
    eventCounts
      .take(0)
      .points.map((p) => [p.tags.event_type, p.tags.source, p.tags.host, p.tags.subsystem, p.fields.counter]);
  return { process, destinations, logger, clock, counted };
}

describe("createUserEventProcessor", () => {
  it("processes example 1 into one point, two broker messages and one observability event", async () => {
    const { process, destinations } = setup();

    const outcome = await process(bytes(USER_CONNECTION), RECEIVED, "10.0.0.1");

    expect(outcome).toBe("processed");
    expect(destinations.calls).toEqual(["writePoints:1", "writeMessages:2", "writeEvents:1"]);
    expect(destinations.points[0]).toMatchObject({
      measurement: "user_events",
      timestampMs: RECEIVED,
      tags: { appId: APP_ID, appName: "Sales", uaBrowserName: "Firefox", userFull: "userdir\\user3" },
    });
    expect(destinations.events[0]?.eventType).toBe("qs_userEvent");
  });

  it("counts a user event by marker source, host and origin", async () => {
    const { process, counted } = setup();

    await process(bytes(USER_SESSION), RECEIVED);

    expect(counted()).toEqual([["user", "qseow-proxy-session", "host2", "https://host2", integerField(1)]]);
  });

  it("recognises the marker case-insensitively", async () => {
    const { process } = setup();

    expect(
      await process(bytes(USER_SESSION.replace("/qseow-proxy-session/", "/QSEOW-Proxy-Session/")), RECEIVED),
    ).toBe("processed");
  });

  it("counts an excluded user's event and writes nothing for it", async () => {
    const { process, destinations, counted } = setup({
      excludeUser: [{ directory: "userdir", userId: "user3" }],
    });

    const outcome = await process(bytes(USER_CONNECTION), RECEIVED);

    expect(outcome).toBe("processed");
    expect(destinations.calls).toEqual([]);
    expect(counted()).toEqual([
      ["user", "qseow-proxy-connection", "pro2-win1", "AppAccess", integerField(1)],
    ]);
  });

  it("matches excluded users exactly (case-sensitive)", async () => {
    const { process, destinations } = setup({ excludeUser: [{ directory: "USERDIR", userId: "user3" }] });

    await process(bytes(USER_CONNECTION), RECEIVED);

    expect(destinations.points).toHaveLength(1);
  });

  it("counts an unknown marker as unknown ×3 and warns with a preview", async () => {
    const { process, destinations, logger, counted } = setup();

    const outcome = await process(bytes("/qseow-engine/;1;2;3"), RECEIVED, "10.0.0.9");

    expect(outcome).toBe("unknown_marker");
    expect(destinations.calls).toEqual([]);
    expect(counted()).toEqual([["user", "unknown", "unknown", "unknown", integerField(1)]]);
    expect(logger.at("warn")[0]?.fields).toMatchObject({
      sender: "10.0.0.9",
      preview: "/qseow-engine/;1;2;3",
    });
  });

  it("rejects a short datagram as malformed without counting it, one WARN per sender per minute", async () => {
    const { process, destinations, logger, clock, counted } = setup();
    const short = bytes("/qseow-proxy-session/;host2;Stop session;INTERNAL");

    const outcomes = [await process(short, RECEIVED, "10.0.0.1"), await process(short, RECEIVED, "10.0.0.1")];
    clock.advance(60_000);
    await process(short, RECEIVED, "10.0.0.1");

    expect(outcomes).toEqual(["malformed", "malformed"]);
    expect(destinations.calls).toEqual([]);
    expect(counted()).toEqual([]);
    expect(logger.at("warn").map((e) => e.fields?.suppressedSinceLastWarning)).toEqual([0, 1]);
    expect(logger.at("warn")[0]?.fields).toMatchObject({ source: "qseow-proxy-session", expectedFields: 8 });
  });

  it("decodes invalid UTF-8 as U+FFFD instead of failing", async () => {
    const { process, destinations } = setup();
    const prefix = bytes("/qseow-proxy-session/;host\u00e9;Start session;D;U;O;/hub;m");
    const broken = new Uint8Array([...prefix.slice(0, 27), 0xc3, 0x28, 0xff, ...prefix.slice(27)]);

    expect(await process(broken, RECEIVED)).toBe("processed");
    expect(destinations.points[0]?.tags.host).toContain("\uFFFD");
  });

  it.each([
    ["the event's time-series switch", { sendToTimeseriesdb: { enable: false } }, {}, "writePoints"],
    [
      "the time-series master switch",
      {},
      { timeseriesdbConfig: { enable: false, version: 3 } },
      "writePoints",
    ],
    ["the event's broker switch", { sendToMQTT: { enable: false } }, {}, "writeMessages"],
    ["the broker master switch", {}, { mqttConfig: { enable: false } }, "writeMessages"],
    ["the event's observability switch", { sendToObsPlatform: { enable: false } }, {}, "writeEvents"],
    ["the observability master switch", {}, { obsPlatform: { enable: false } }, "writeEvents"],
  ])("does not call a destination when %s is off", async (_case, userEvents, deps, destination) => {
    const { process, destinations } = setup(userEvents, deps as Partial<UserEventProcessorDeps>);

    await process(bytes(USER_CONNECTION), RECEIVED);

    expect(destinations.calls.map((c) => c.split(":")[0])).not.toContain(destination);
    expect(destinations.calls).toHaveLength(2);
  });

  it("scrambles user identities when scramble is on", async () => {
    const { process, destinations } = setup({ sendToObsPlatform: { enable: true, scramble: true } });

    await process(bytes(USER_CONNECTION), RECEIVED);

    const userId = destinations.events[0]?.attributes.find((a) => a.name === "qs_userId")?.value;
    expect(userId).toMatch(/^[0-9a-f]{16}$/);
  });

  it("refuses to start scrambling without a key", () => {
    expect(() =>
      setup({ sendToObsPlatform: { enable: true, scramble: true } }, { scrambleKey: new Uint8Array(0) }),
    ).toThrow(ScrambleKeyError);
  });

  it("rejects when a destination fails, after every destination was called", async () => {
    const { process, destinations } = setup();
    destinations.writePoints = async () => {
      throw new Error("database down");
    };

    await expect(process(bytes(USER_CONNECTION), RECEIVED)).rejects.toThrow("database down");
    expect(destinations.calls).toEqual(["writeMessages:2", "writeEvents:1"]);
  });
});
