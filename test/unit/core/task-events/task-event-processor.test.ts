import { describe, expect, it } from "vitest";
import { createAlertDispatcher } from "../../../../core/alerts/dispatch.ts";
import type { AlertDestination, TaskAlert } from "../../../../core/alerts/index.ts";
import { notAvailable } from "../../../../core/alerts/task-alert.ts";
import type { TaskEvent } from "../../../../core/alerts/task-event.ts";
import type { Enrichment } from "../../../../core/task-events/enrich-task-event.ts";
import { createRecentTaskEvents } from "../../../../core/task-events/recent-task-events.ts";
import { createTaskDeduplication } from "../../../../core/task-events/task-deduplication.ts";
import { createTaskEventCounts } from "../../../../core/task-events/task-event-counts.ts";
import { createTaskEventProcessor } from "../../../../core/task-events/task-event-processor.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { ENGINE_RELOAD_FAILED_DATAGRAM, FAILED, SUCCESS } from "./task-datagram-examples.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

/** `unknownTasks`: the task ids the repository of this test answers it does not know. */
function setUp(
  destinations: readonly AlertDestination<TaskAlert>[] = [],
  unknownTasks: readonly string[] = [],
) {
  const clock = createManualClock();
  const logger = recordingLogger();
  const counts = createTaskEventCounts();
  const lookups: TaskEvent[] = [];
  const missing = notAvailable("not looked up in this test");
  const enrich = async (event: TaskEvent): Promise<Enrichment> => {
    lookups.push(event);
    if (unknownTasks.includes(event.taskId))
      return { outcome: "unknown_task", reason: `the repository knows no task ${event.taskId}` };
    return {
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
    };
  };
  const recent = createRecentTaskEvents();
  const process = createTaskEventProcessor({
    deduplication: createTaskDeduplication({ windowMs: 3_600_000 }),
    enrich,
    dispatch: createAlertDispatcher({ destinations, clock, logger }).dispatch,
    counts,
    recent,
    logger,
    clock,
  });
  return { process, clock, logger, counts, lookups, recent };
}

describe("task-event processor: what comes in", () => {
  it("looks a new event up once and counts it received and processed", async () => {
    const { process, counts, lookups } = setUp();
    await expect(process(bytes(FAILED), 1000, "10.0.0.5")).resolves.toBe("processed");
    expect(lookups).toHaveLength(1);
    expect(counts.totals()).toMatchObject({
      "failed.received": 1,
      "failed.processed": 1,
      "failed.enrichment_failed": 1,
    });
  });

  it("sends a repeat of the same execution nowhere: no second lookup, counted duplicate", async () => {
    const { process, counts, lookups } = setUp();
    await process(bytes(FAILED), 1000, "10.0.0.5");
    await expect(process(bytes(FAILED), 2000, "10.0.0.6")).resolves.toBe("dropped_by_rule");
    expect(lookups).toHaveLength(1);
    expect(counts.totals()).toMatchObject({
      "failed.received": 2,
      "failed.duplicate": 1,
      "failed.processed": 1,
    });
  });
});

describe("task-event processor: bad input", () => {
  it("warns about an unknown prefix at most once a minute per sender", async () => {
    const { process, clock, logger, counts } = setUp();
    for (let i = 0; i < 3; i += 1)
      await expect(process(bytes("/nonsense/;a;b"), 1000, "10.0.0.5")).resolves.toBe("unknown_marker");
    await process(bytes("/nonsense/;a;b"), 1000, "10.0.0.6");
    clock.advance(60_000);
    await process(bytes("/nonsense/;a;b"), 61_000, "10.0.0.5");
    expect(logger.at("warn").map((entry) => entry.message)).toEqual([
      expect.stringContaining("not a task event prefix"),
      expect.stringContaining("not a task event prefix"),
      expect.stringContaining("not a task event prefix"),
    ]);
    expect(counts.totals()).toMatchObject({ "unknown.unknown_marker": 5 });
  });

  it("counts a short datagram malformed under its kind, with the reason", async () => {
    const { process, logger, counts } = setUp();
    const short = FAILED.split(";").slice(0, 9).join(";");
    await expect(process(bytes(short), 1000, "10.0.0.5")).resolves.toBe("malformed");
    expect(counts.totals()).toMatchObject({ "failed.malformed": 1 });
    expect(logger.at("warn")[0]?.message).toMatch(/fewer than 11 fields/);
  });

  it("lets the engine's reload-failed datagram go quietly: it names no task", async () => {
    const { process, logger, counts, lookups } = setUp();
    await expect(process(bytes(ENGINE_RELOAD_FAILED_DATAGRAM), 1000, "10.0.0.5")).resolves.toBe(
      "dropped_by_rule",
    );
    expect(lookups).toHaveLength(0);
    expect(logger.at("warn")).toHaveLength(0);
    expect(counts.totals()).toMatchObject({ "unknown.ignored": 1 });
  });
});

describe("task-event processor: what the log says", () => {
  /** A destination of this test that sends every alert as one message. */
  const sending: AlertDestination<TaskAlert> = {
    name: "email",
    handles: () => true,
    send: async () => ({ outcome: "sent", messages: 1 }),
  };

  it("says each failed run once at INFO: task, app, node, execution and what each destination did", async () => {
    const { process, logger } = setUp([sending]);
    await process(bytes(FAILED), 1000, "10.0.0.5");
    await process(bytes(FAILED), 2000, "10.0.0.5"); // a repeat: nothing more at INFO

    expect(logger.at("info")).toEqual([
      expect.objectContaining({
        message: "reload task failed: Reload Sales",
        fields: expect.objectContaining({
          app: "Sales dashboard",
          node: "qs-node1",
          executionId: FAILED.split(";")[9],
          alerts: "email sent",
        }),
      }),
    ]);
  });

  it("says that no destination is switched on for the kind, rather than leaving alerts empty", async () => {
    const { process, logger } = setUp([{ ...sending, handles: () => false }]);
    await process(bytes(FAILED), 1000, "10.0.0.5");

    expect(logger.at("info")).toEqual([
      expect.objectContaining({
        message: "reload task failed: Reload Sales",
        fields: expect.objectContaining({
          alerts: "none (no destination is switched on for reloadTaskFailure)",
        }),
      }),
    ]);
  });

  it("says a successful run at VERBOSE only: a site has many more of them", async () => {
    const { process, logger } = setUp([sending]);
    await process(bytes(SUCCESS), 1000, "10.0.0.5");

    expect(logger.at("info")).toEqual([]);
    expect(logger.at("verbose").map((entry) => entry.message)).toContain("reload task success: Reload Sales");
  });
});

describe("task-event processor: a task the repository does not know", () => {
  /** A destination of this test that records what it is sent. */
  function recording() {
    const sent: string[] = [];
    const destination: AlertDestination<TaskAlert> = {
      name: "webhook",
      handles: () => true,
      send: async (alert) => {
        sent.push(alert.event.taskId);
        return { outcome: "sent", messages: 1 };
      },
    };
    return { sent, destination };
  }

  /** FAILED with another task id and execution id: a forged datagram with fresh GUIDs. */
  const forged = (i: number) => {
    const fields = FAILED.split(";");
    fields[5] = `00000000-0000-4000-8000-00000000000${i}`;
    fields[9] = `10000000-0000-4000-8000-00000000000${i}`;
    return fields.join(";");
  };
  const forgedIds = [1, 2, 3].map((i) => forged(i).split(";")[5] as string);

  it("sends no alert to any destination, counts the event unknown_task and leaves it off the last events", async () => {
    const { sent, destination } = recording();
    const { process, counts, recent } = setUp([destination], forgedIds);
    for (const i of [1, 2, 3])
      await expect(process(bytes(forged(i)), 1000, "10.0.0.9")).resolves.toBe("dropped_by_rule");
    await process(bytes(FAILED), 1000, "10.0.0.5");

    expect(sent).toEqual([FAILED.split(";")[5]]);
    expect(counts.totals()).toMatchObject({
      "failed.received": 4,
      "failed.unknown_task": 3,
      "failed.processed": 1,
    });
    expect(recent.list().map((shown) => shown.executionId)).toEqual([FAILED.split(";")[9]]);
  });

  it("warns at most once a minute, naming the task id and the sender, with the count since the last line", async () => {
    const { process, clock, logger } = setUp([], forgedIds);
    await process(bytes(forged(1)), 1000, "10.0.0.9");
    await process(bytes(forged(2)), 1000, "10.0.0.9");
    clock.advance(60_000);
    await process(bytes(forged(3)), 61_000, "10.0.0.8");

    expect(logger.at("warn")).toEqual([
      expect.objectContaining({
        message: expect.stringContaining("no alert sent"),
        fields: expect.objectContaining({ taskId: forgedIds[0], sender: "10.0.0.9", eventsSinceLastLine: 1 }),
      }),
      expect.objectContaining({
        fields: expect.objectContaining({ taskId: forgedIds[2], sender: "10.0.0.8", eventsSinceLastLine: 2 }),
      }),
    ]);
  });
});
