/**
 * Task starts from the broker, as Butler took them: the message published to
 * `mqttConfig.taskStartTopic` is the id of the task to start, as text (a GUID; white space around
 * it, such as the line end a file or `mosquitto_pub -l` adds, is ignored). Each start goes through
 * the REST start's own use case (start-reload-tasks.ts): the same lookup, start filter and counts,
 * under the source `broker`.
 *
 * A message is never answered, so what becomes of it is logged and counted: a message that is
 * not a task id (longer than MAX_PAYLOAD_BYTES, not UTF-8 text, not a GUID) is counted
 * `malformed`; a start the filter refuses, a task the platform does not know, and a platform that
 * cannot be reached are logged at WARN at most once a minute per reason (per task for the first
 * two) with the count since the last line. Nothing is retried: a start that failed is for its
 * publisher to send again, so a platform outage never builds up a storm of starts.
 *
 * Messages are started one after the other, in the order received; at most `maxWaiting` wait for
 * the start under way, and a message beyond them is dropped (counted `dropped`), so a flood of
 * messages holds bounded memory and reaches the platform one call at a time.
 */
import { createLogThrottle } from "../logging/index.ts";
import type { Clock, Logger } from "../ports.ts";
import { PlatformError } from "./errors.ts";
import { isGuid, normalizeGuid } from "./guid.ts";
import { type StartReloadTasksDeps, startReloadTasks, TaskStartRefusedError } from "./start-reload-tasks.ts";
import type { StartTaskFilter } from "./start-task-filter.ts";
import type { TaskStartCounts } from "./task-start-counts.ts";

/** A GUID is 36 characters; this leaves room for white space around it, and no more. */
export const MAX_PAYLOAD_BYTES = 256;
/** Starts waiting behind the one under way, beyond which a message is dropped. */
export const DEFAULT_MAX_WAITING = 100;
/** How much of a malformed message the log line shows. */
const PREVIEW_CHARS = 64;

export type ReadTaskId =
  | { readonly ok: true; readonly taskId: string }
  | { readonly ok: false; readonly reason: string; readonly preview?: string };

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The task id a start message names, or why it names none. */
export function readTaskId(payload: Uint8Array): ReadTaskId {
  if (payload.byteLength > MAX_PAYLOAD_BYTES) {
    return { ok: false, reason: `longer than ${MAX_PAYLOAD_BYTES} bytes (${payload.byteLength})` };
  }
  let text: string;
  try {
    text = utf8.decode(payload);
  } catch {
    return { ok: false, reason: "not UTF-8 text" };
  }
  const trimmed = text.trim();
  if (!isGuid(trimmed)) {
    return {
      ok: false,
      reason:
        trimmed === "" ? "empty" : "not a task id (a GUID such as 7552d9fc-d1bb-4975-9a38-18357de531ea)",
      preview: text.slice(0, PREVIEW_CHARS),
    };
  }
  return { ok: true, taskId: normalizeGuid(trimmed) };
}

export interface BrokerTaskStartsDeps {
  readonly platform: StartReloadTasksDeps["platform"];
  readonly filter: StartTaskFilter;
  readonly counts: TaskStartCounts;
  readonly logger: Logger;
  readonly clock: Clock;
  /** The topic, for the log lines. */
  readonly topic: string;
  readonly maxWaiting?: number;
}

export interface BrokerTaskStarts {
  /** Takes one message of the start topic; never throws, never waits. */
  receive(payload: Uint8Array): void;
  /** Resolves once every message received so far has been dealt with. */
  idle(): Promise<void>;
  /**
   * Takes no more messages, drops those waiting (counted `dropped`, one WARN) and waits for the
   * start under way, at most `graceMs` (a platform call's own timeout may be longer).
   */
  stop(graceMs: number): Promise<void>;
}

export function createBrokerTaskStarts(deps: BrokerTaskStartsDeps): BrokerTaskStarts {
  const { counts, logger, clock, topic } = deps;
  const maxWaiting = deps.maxWaiting ?? DEFAULT_MAX_WAITING;
  const throttle = createLogThrottle();
  const waiting: string[] = [];
  let draining: Promise<void> | undefined;
  let stopped = false;

  /** A WARN at most once a minute per key, with the count of messages it stands for. */
  function warn(key: string, message: string, fields: Record<string, unknown>): void {
    const since = throttle.admit(key, clock.now());
    if (since === undefined) logger.debug(message, { topic, ...fields });
    else logger.warn(message, { topic, ...fields, messagesSinceLastLine: since });
  }

  async function startOne(taskId: string): Promise<void> {
    try {
      const result = await startReloadTasks(
        {
          platform: deps.platform,
          keyValues: undefined,
          logger,
          filter: deps.filter,
          counts,
          source: "broker",
        },
        { taskId, allTaskIdsMustExist: false, items: [] },
      );
      if (result.tasksId.invalid.length > 0) {
        warn(`unknown ${taskId}`, "task start from the broker: the platform knows no task with this id", {
          taskId,
        });
      }
    } catch (error) {
      if (error instanceof TaskStartRefusedError) {
        const task = error.refused[0];
        warn(`refused ${taskId}`, "task start from the broker refused", {
          taskId,
          task: task?.taskName,
          reason: task?.reason,
        });
      } else if (error instanceof PlatformError) {
        warn("failed", "task start from the broker failed: the platform did not start it", {
          taskId,
          reason: error.message,
        });
      } else {
        // Not the platform's answer (a bug): said at once, never thrown into the broker client.
        counts.record("broker", "failed");
        logger.error("task start from the broker failed", {
          taskId,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
  }

  async function drain(): Promise<void> {
    for (let taskId = waiting.shift(); taskId !== undefined; taskId = waiting.shift()) {
      await startOne(taskId);
    }
  }

  return {
    receive(payload) {
      if (stopped) return;
      const read = readTaskId(payload);
      if (!read.ok) {
        counts.record("broker", "malformed");
        warn(
          `malformed ${read.reason}`,
          `task start from the broker ignored: the message is ${read.reason}`,
          {
            bytes: payload.byteLength,
            ...(read.preview === undefined ? {} : { message: read.preview }),
          },
        );
        return;
      }
      if (waiting.length >= maxWaiting) {
        counts.record("broker", "dropped");
        warn("dropped", `task start from the broker dropped: ${maxWaiting} starts already wait`, {
          taskId: read.taskId,
        });
        return;
      }
      waiting.push(read.taskId);
      draining ??= drain().finally(() => {
        draining = undefined;
      });
    },
    async idle() {
      while (draining !== undefined) await draining;
    },
    async stop(graceMs) {
      stopped = true;
      const dropped = waiting.splice(0).length;
      if (dropped > 0) {
        counts.record("broker", "dropped", dropped);
        logger.warn("task starts from the broker dropped at shutdown", { topic, count: dropped });
      }
      const underWay = draining;
      if (underWay === undefined) return;
      let timer: unknown;
      await Promise.race([
        underWay,
        new Promise<void>((resolve) => (timer = clock.setTimeout(resolve, graceMs))),
      ]);
      clock.clearTimeout(timer);
    },
  };
}
