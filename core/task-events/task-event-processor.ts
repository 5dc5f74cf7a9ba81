/**
 * The task-event listener's processor, one datagram at a time as the UDP queue hands them over:
 * decode → prefix → parse → de-duplicate → enrich (once) → dispatch to every destination that
 * handles the alert kind → counted and shown among the last events. Bad input never throws: a
 * datagram that is not a task event ends as `malformed` or `unknown_marker`, with one WARN per
 * sender and reason per minute, and a duplicate as `dropped_by_rule` for the queue. A lookup that
 * failed is said at WARN at most once a minute with what was missing; the alert still goes out.
 *
 * An event for a task the repository does not know goes nowhere — no alert, no time-series point,
 * no broker message: every destination is reached through the dispatcher, which it never reaches.
 * The points and messages record runs, and a run of a task that does not exist is forged or
 * stale; with a fresh task id per datagram it would also add a series per datagram to the
 * database. It is counted `unknown_task`, said at WARN at most once a minute (task id, sender and
 * how many since the last line), and left out of the last events on the status page, so that a
 * flood of forged datagrams cannot push the real runs off it.
 *
 * With `taskEvents.scriptLogFiles` on, a failed reload's script log is written to disk beside the
 * alerts, from the same download (script-log-files.ts); the processing of the event waits for
 * both, and neither waits for the other.
 *
 * Every run that failed or was aborted gets one INFO line (task, app, node, execution and what each
 * destination did with the alert): it is what an operator looks for in the log after a night, and
 * even a site that fails a task a minute writes few of them. Successes and distribute runs, many
 * more, are logged at VERBOSE.
 */

import {
  type AlertOutcome,
  type DispatchAlert,
  foundValue,
  type TaskAlert,
  type TaskEvent,
  unavailableParts,
} from "../alerts/index.ts";
import { createLogThrottle } from "../logging/index.ts";
import type { Clock, Logger } from "../ports.ts";
import {
  createDatagramDecoder,
  createSenderWarnings,
  type DatagramOutcome,
  type DatagramProcessor,
  markerOf,
} from "../udp/index.ts";
import type { EnrichedParts, Enrichment } from "./enrich-task-event.ts";
import type { RecentTaskEvents } from "./recent-task-events.ts";
import type { ScriptLogFiles } from "./script-log-files.ts";
import { parseTaskDatagram } from "./task-datagram.ts";
import type { TaskDeduplication } from "./task-deduplication.ts";
import type { TaskEventCounts } from "./task-event-counts.ts";

export interface TaskEventProcessorDeps {
  readonly deduplication: TaskDeduplication;
  /** enrichTaskEvent with its options and repository bound. */
  readonly enrich: (event: TaskEvent) => Promise<Enrichment>;
  /** Where the alert goes: the records of the run and the alert channels (task-run-dispatch.ts). */
  readonly dispatch: DispatchAlert<TaskAlert>;
  /** Where failed reloads' script logs are kept, beside the alerts (taskEvents.scriptLogFiles). */
  readonly scriptLogFiles?: Pick<ScriptLogFiles, "keep"> | undefined;
  readonly counts: TaskEventCounts;
  readonly recent: RecentTaskEvents;
  readonly logger: Logger;
  readonly clock: Clock;
}

const UNKNOWN = "unknown";

/**
 * What each destination did, for the log line; with none switched on for the kind, says so: an
 * empty value would leave a new operator wondering why no alert arrived.
 */
function alertsText(kind: string, alerts: Readonly<Record<string, AlertOutcome>>): string {
  const done = Object.entries(alerts).map(([destination, outcome]) => `${destination} ${outcome}`);
  return done.length > 0 ? done.join(", ") : `none (no destination is switched on for ${kind})`;
}

export function createTaskEventProcessor(deps: TaskEventProcessorDeps): DatagramProcessor {
  const { counts, logger, clock } = deps;
  const decode = createDatagramDecoder();
  const warnings = createSenderWarnings(logger, clock);
  const lookupWarnings = createLogThrottle();

  function warnUnavailable(event: TaskEvent, unavailable: Record<string, string>): void {
    const since = lookupWarnings.admit("unavailable", clock.now());
    const fields = {
      task: event.taskName,
      taskId: event.taskId,
      executionId: event.executionId,
      unavailable,
    };
    if (since === undefined) logger.debug("task event sent with lookups that failed", fields);
    else logger.warn("task event sent with lookups that failed", { ...fields, eventsSinceLastLine: since });
  }

  function warnUnknownTask(event: TaskEvent): void {
    const since = lookupWarnings.admit("unknown_task", clock.now());
    const fields = {
      taskId: event.taskId,
      task: event.taskName,
      executionId: event.executionId,
      sender: event.sender,
    };
    const message =
      "task event for a task the repository does not know: no alert sent (a forged or stale datagram, or a node of another site)";
    if (since === undefined) logger.debug(message, fields);
    else logger.warn(message, { ...fields, eventsSinceLastLine: since });
  }

  async function alertFor(event: TaskEvent): Promise<DatagramOutcome> {
    const enrichment = await deps.enrich(event);
    if (enrichment.outcome === "unknown_task") {
      counts.record(event.kind, "unknown_task");
      warnUnknownTask(event);
      return "dropped_by_rule";
    }
    if (enrichment.outcome !== "alert") {
      counts.record(event.kind, enrichment.outcome);
      const log = enrichment.outcome === "unresolved" ? logger.warn : logger.verbose;
      log.call(logger, `task event ${enrichment.outcome}: ${enrichment.reason}`, { task: event.taskName });
      remember(enrichment.parts, `${event.kind} (${enrichment.outcome})`, {});
      return "processed";
    }
    const { alert } = enrichment;
    const unavailable = unavailableParts(alert);
    if (Object.keys(unavailable).length > 0) {
      counts.record(event.kind, "enrichment_failed");
      warnUnavailable(event, unavailable);
    }
    const [alerts] = await Promise.all([deps.dispatch(alert), deps.scriptLogFiles?.keep(alert)]);
    counts.record(event.kind, "processed");
    const shown = remember(alert, alert.kind, alerts);
    const log = event.kind === "failed" || event.kind === "aborted" ? logger.info : logger.verbose;
    log.call(logger, `reload task ${event.kind}: ${shown.taskName}`, {
      app: shown.appName,
      node: shown.node,
      executionId: event.executionId,
      alerts: alertsText(alert.kind, alerts),
    });
    return "processed";
  }

  /** Adds the event to the last ones shown, with the names the repository gave; answers what it shows. */
  function remember(parts: EnrichedParts, kind: string, alerts: Record<string, AlertOutcome>) {
    const { event } = parts;
    const shown = {
      kind,
      taskName: foundValue(parts.task)?.name || event.taskName,
      appName: foundValue(parts.app)?.name || event.appName,
      node: foundValue(parts.execution)?.executingNodeName || event.hostName,
      at: new Date(event.receivedAtMs).toISOString(),
      executionId: event.executionId,
      alerts,
      unavailable: unavailableParts(parts),
    };
    deps.recent.add(shown);
    return shown;
  }

  return async function processTaskDatagram(datagram, receivedAtMs, sender = UNKNOWN) {
    const text = decode(datagram);
    const prefix = markerOf(text);
    const parsed = parseTaskDatagram(text, prefix, { receivedAtMs, sender });
    if (!parsed.ok) {
      const kind = parsed.outcome === "malformed" ? parsed.kind : UNKNOWN;
      counts.record(kind, "received");
      counts.record(kind, parsed.outcome);
      if (parsed.outcome === "ignored") {
        logger.debug(`task event ignored: ${parsed.reason}`, { sender });
        return "dropped_by_rule";
      }
      warnings.warn(sender, `UDP task event ignored: ${parsed.reason}`, text, { prefix });
      return parsed.outcome;
    }
    const { event } = parsed;
    counts.record(event.kind, "received");
    if (deps.deduplication.isDuplicate(event.executionId, event.kind, receivedAtMs)) {
      counts.record(event.kind, "duplicate");
      logger.debug("task event is a duplicate: this execution was reported within the window", {
        task: event.taskName,
        executionId: event.executionId,
        kind: event.kind,
        sender,
      });
      return "dropped_by_rule";
    }
    return alertFor(event);
  };
}
