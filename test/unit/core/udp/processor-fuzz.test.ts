/**
 * Garbage in, no exception out: random bytes, random field counts around each layout's, huge
 * fields, control characters and broken UTF-8 after real markers, from a seeded PRNG so that a
 * failure reproduces. After the garbage, a valid datagram must still be processed as usual.
 */
import { describe, expect, it } from "vitest";
import { createEventCounts } from "../../../../core/udp/event-counts.ts";
import type { DatagramOutcome } from "../../../../core/udp/event-destinations.ts";
import { createLogEventProcessor } from "../../../../core/udp/log-event-processor.ts";
import { createRejectedEventCounts } from "../../../../core/udp/rejected-event-counts.ts";
import { createUserEventProcessor } from "../../../../core/udp/user-event-processor.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import {
  appNames,
  bytes,
  ENGINE,
  logEventsConfig,
  obsPlatformConfig,
  platformEventsConfig,
  recordingDestinations,
  SCRAMBLE_KEY,
  USER_CONNECTION,
  userEventsConfig,
} from "./udp-fixtures.ts";

const ITERATIONS = 3000;
const OUTCOMES: readonly DatagramOutcome[] = ["processed", "malformed", "unknown_marker", "dropped_by_rule"];
const MARKERS = [
  "/qseow-engine/",
  "/qseow-proxy/",
  "/qseow-repository/",
  "/qseow-scheduler/",
  "/qseow-qix-perf/",
  "/qseow-proxy-session/",
  "/qseow-proxy-connection/",
  "/QSEOW-ENGINE/",
  "/unknown/",
  "",
];
const PIECES = [
  "",
  "0",
  "-1",
  "NaN",
  "1e999",
  "3B3B3B3B-3B3B-3B3B-3B3B-3B3B3B3B3B3B",
  "20211109T153726.028+0200",
  "2021-11-09 15:37:26,028",
  "WARN",
  "error",
  "FATAL",
  "/app/3b3b3b3b-3b3b-3b3b-3b3b-3b3b3b3b3b3b?x",
  "UserAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0'",
  "UserAgent:",
  "A.B..C",
  "a+b#c",
  "\u0000\u001f\u007f\r\n",
  "Start session",
  "🙂",
  '"quoted\\"',
];

/** mulberry32: a small seeded PRNG, so a failing iteration can be replayed. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function garbage(random: () => number): Uint8Array {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  switch (Math.floor(random() * 4)) {
    case 0: {
      // Random bytes, sometimes a lot of them.
      const length = random() < 0.05 ? 65_507 : Math.floor(random() * 600);
      return Uint8Array.from({ length }, () => Math.floor(random() * 256));
    }
    case 1: {
      // A real marker with a random number of random known pieces.
      const count = Math.floor(random() * 32);
      return bytes([pick(MARKERS), ...Array.from({ length: count }, () => pick(PIECES))].join(";"));
    }
    case 2: {
      // A real marker with huge fields.
      const count = 5 + Math.floor(random() * 25);
      const huge = () => "x;".repeat(Math.floor(random() * 5)) + "y".repeat(Math.floor(random() * 20_000));
      return bytes([pick(MARKERS), ...Array.from({ length: count }, huge)].join(";"));
    }
    default: {
      // A real marker followed by random bytes (broken UTF-8 included).
      const tail = Uint8Array.from({ length: Math.floor(random() * 300) }, () =>
        random() < 0.2 ? 59 : Math.floor(random() * 256),
      );
      return new Uint8Array([...bytes(`${pick(MARKERS)};`), ...tail]);
    }
  }
}

function processors() {
  const destinations = recordingDestinations();
  const logger = recordingLogger();
  const clock = createManualClock();
  const platformEvents = platformEventsConfig({
    eventCount: { enable: true },
    rejectedEventCount: { enable: true },
  });
  const eventCounts = createEventCounts({ version: 3, platformEvents });
  const logEvents = logEventsConfig({
    source: {
      engine: { enable: true },
      proxy: { enable: true },
      repository: { enable: true },
      scheduler: { enable: true },
      engineApiPerf: { enable: true },
    },
    categorise: {
      enable: true,
      rules: [
        { logLevel: ["warn"], category: [{ name: "c", value: "1" }], filter: [{ type: "so", value: "y" }] },
        { logLevel: ["fatal"], action: "drop", filter: [{ type: "sw", value: "x" }] },
      ],
    },
    enginePerformanceMonitor: {
      enable: true,
      appNameLookup: { enable: true },
      trackRejectedEvents: { enable: true },
      monitorFilter: { allApps: { enable: true, appExclude: [{ appName: "excluded" }] } },
    },
    sendToTimeseriesdb: { enable: true },
    sendToMQTT: { enable: true },
    sendToObsPlatform: { enable: true },
  });
  const common = {
    timeseriesdbConfig: { enable: true, version: 3 } as const,
    mqttConfig: { enable: true },
    appNames: appNames(),
    eventCounts,
    destinations,
    logger,
    clock,
  };
  const log = createLogEventProcessor({
    ...common,
    logEvents,
    obsPlatform: obsPlatformConfig({ enable: true }),
    rejectedEventCounts: createRejectedEventCounts({
      version: 3,
      platformEvents,
      trackRejectedEvents: logEvents.enginePerformanceMonitor.trackRejectedEvents,
    }),
  });
  const user = createUserEventProcessor({
    ...common,
    userEvents: userEventsConfig({
      enable: true,
      sendToTimeseriesdb: { enable: true },
      sendToMQTT: { enable: true },
      sendToObsPlatform: { enable: true, scramble: true },
    }),
    obsPlatform: { enable: true },
    scrambleKey: SCRAMBLE_KEY,
  });
  return { log, user, destinations };
}

describe("the UDP processors under random input", () => {
  it.each([1, 2])("never throw and keep working afterwards (seed %i)", async (seed) => {
    const random = prng(seed);
    const { log, user, destinations } = processors();
    const seen = new Set<string>();

    for (let i = 0; i < ITERATIONS; i++) {
      const datagram = garbage(random);
      const sender = `10.0.${seed}.${i % 7}`;
      const [logOutcome, userOutcome] = await Promise.all([
        log(datagram, 1000 + i, sender),
        user(datagram, 1000 + i, sender),
      ]);
      expect(OUTCOMES, `log outcome of iteration ${i}`).toContain(logOutcome);
      expect(OUTCOMES, `user outcome of iteration ${i}`).toContain(userOutcome);
      seen.add(`log:${logOutcome}`).add(`user:${userOutcome}`);
    }
    // The garbage reached every branch, not only the marker check.
    expect([...seen].sort()).toEqual(
      expect.arrayContaining([
        "log:malformed",
        "log:processed",
        "log:unknown_marker",
        "user:malformed",
        "user:processed",
      ]),
    );
    for (const point of destinations.points) {
      for (const field of Object.values(point.fields)) {
        if (field.kind === "float" || field.kind === "integer")
          expect(Number.isFinite(field.value)).toBe(true);
      }
    }
    destinations.points.length = 0;

    expect(await log(bytes(ENGINE), 1)).toBe("processed");
    expect(await user(bytes(USER_CONNECTION), 2)).toBe("processed");
    expect(destinations.points.map((p) => p.tags.host)).toEqual(["host1", "pro2-win1"]);
  });
});
