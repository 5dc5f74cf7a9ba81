/**
 * Garbage in, no exception out, for the task-event processor: random bytes, random field counts
 * around the eleven of a task datagram, huge fields, control characters and broken UTF-8 after
 * every task prefix, from a seeded PRNG so that a failure reproduces. Every datagram ends in one
 * of the queue's outcomes; a valid one after the garbage still becomes an alert.
 */
import { describe, expect, it } from "vitest";
import { createAlertDispatcher } from "../../../../core/alerts/dispatch.ts";
import { notAvailable, type TaskAlert } from "../../../../core/alerts/task-alert.ts";
import type { TaskEvent } from "../../../../core/alerts/task-event.ts";
import type { Enrichment } from "../../../../core/task-events/enrich-task-event.ts";
import { createRecentTaskEvents } from "../../../../core/task-events/recent-task-events.ts";
import { TASK_PREFIXES } from "../../../../core/task-events/task-datagram.ts";
import { createTaskDeduplication } from "../../../../core/task-events/task-deduplication.ts";
import { createTaskEventCounts } from "../../../../core/task-events/task-event-counts.ts";
import { createTaskEventProcessor } from "../../../../core/task-events/task-event-processor.ts";
import type { DatagramOutcome } from "../../../../core/udp/event-destinations.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { FAILED } from "./task-datagram-examples.ts";

const ITERATIONS = 3000;
const OUTCOMES: readonly DatagramOutcome[] = ["processed", "malformed", "unknown_marker", "dropped_by_rule"];
const PREFIXES = [
  ...TASK_PREFIXES.keys(),
  "/engine-reload-failed/",
  "/SCHEDULER-TASK-FAILED/",
  "/unknown/",
  "",
];
const PIECES = [
  "",
  "54767e54-af40-4da3-8c3a-a9ead04c7ee9",
  "54767E54-AF40-4DA3-8C3A-A9EAD04C7EE9",
  "not-a-guid",
  "2026-06-20 14:03:12,345",
  "ERROR",
  "INTERNAL\\sa_scheduler",
  "\u0000\u001f\u007f\r\n",
  "🙂",
  "Max retries reached",
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

const bytes = (text: string) => new TextEncoder().encode(text);

function garbage(random: () => number): Uint8Array {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  switch (Math.floor(random() * 4)) {
    case 0:
      return Uint8Array.from({ length: random() < 0.05 ? 65_507 : Math.floor(random() * 600) }, () =>
        Math.floor(random() * 256),
      );
    case 1:
      return bytes(
        [pick(PREFIXES), ...Array.from({ length: 8 + Math.floor(random() * 6) }, () => pick(PIECES))].join(
          ";",
        ),
      );
    case 2: {
      const huge = () => "x;".repeat(Math.floor(random() * 3)) + "y".repeat(Math.floor(random() * 20_000));
      return bytes(
        [pick(PREFIXES), ...Array.from({ length: 10 + Math.floor(random() * 3) }, huge)].join(";"),
      );
    }
    default: {
      const tail = Uint8Array.from({ length: Math.floor(random() * 300) }, () =>
        random() < 0.2 ? 59 : Math.floor(random() * 256),
      );
      return new Uint8Array([...bytes(`${pick(PREFIXES)};`), ...tail]);
    }
  }
}

function processor() {
  const clock = createManualClock();
  const logger = recordingLogger();
  const sent: string[] = [];
  const dispatcher = createAlertDispatcher<TaskAlert>({
    destinations: [
      {
        name: "recording",
        handles: () => true,
        send: async (alert) => {
          sent.push(alert.event.executionId);
          return { outcome: "sent", messages: 1 };
        },
      },
    ],
    clock,
    logger,
  });
  const missing = notAvailable("not looked up in this test");
  const enrich = async (event: TaskEvent): Promise<Enrichment> => ({
    outcome: "alert",
    alert: {
      event,
      kind: "reloadTaskFailure",
      task: missing,
      app: missing,
      execution: missing,
      scriptLog: missing,
      appOwner: missing,
    },
  });
  const process = createTaskEventProcessor({
    deduplication: createTaskDeduplication({ windowMs: 3_600_000 }),
    enrich,
    dispatch: dispatcher.dispatch,
    counts: createTaskEventCounts(),
    recent: createRecentTaskEvents(),
    logger,
    clock,
  });
  return { process, sent };
}

describe("task-event processor under garbage", () => {
  it(`ends each of ${ITERATIONS} random datagrams in a queue outcome without throwing, then processes a valid one`, async () => {
    const random = prng(20261127);
    const { process, sent } = processor();
    for (let i = 0; i < ITERATIONS; i += 1) {
      const outcome = await process(garbage(random), 1_750_000_000_000 + i, "10.0.0.5");
      expect(OUTCOMES, `iteration ${i}`).toContain(outcome);
    }
    sent.length = 0;
    await expect(process(bytes(FAILED), 1_750_000_009_999, "10.0.0.5")).resolves.toBe("processed");
    expect(sent).toEqual(["32342464-c525-45c4-b755-1a2b55d4e7f1"]);
  });
});
