/**
 * The time-series database's record of task runs (task-points.ts), written through the agent's
 * one time-series client, one point per run as it comes: not an alert channel, as the records of
 * every run belong to task events, but sent through the same dispatcher, so that each is counted
 * and shown as the alert channels are. The rule for what the database refuses is
 * the one of every other write (write-accepting-refusals.ts): a refusal is counted by reason in
 * the destination metrics and the send fails with the server's words, never retried. An outage
 * (no answer, 5xx) is written again after `OUTAGE_RETRY_DELAYS_MS` (a database restarting is
 * back within seconds, and a point written late keeps its run's time); after the last attempt the
 * send fails, and the dispatcher counts and shows it. The retries hold only this alert's slot.
 */

import { type AlertDestination, AlertSendError, isTaskAlertKind, type TaskAlert } from "../alerts/index.ts";
import { type TimeseriesRefusal, writeAcceptingRefusals } from "../destinations/index.ts";
import type { Clock, TimeseriesClient } from "../ports.ts";
import { checkPoint, LineProtocolError } from "../shared/line-protocol.ts";
import { successPointSkipped, type TaskPointsConfig, taskPoint, writesTaskPoints } from "./task-points.ts";

/** The destination's name in metrics, logs and the status page. */
export const TIMESERIES_ALERT_DESTINATION = "timeseriesdb";

/** Waits before each new attempt of a write that met an outage. */
export const OUTAGE_RETRY_DELAYS_MS: readonly number[] = [1000, 2000, 4000];

export interface TimeseriesTaskDestination extends AlertDestination<TaskAlert> {
  /** Failed writes and refusals by reason, for `steward_destination_*` (core/destinations/destination-stats.ts). */
  stats(): { failedWrites: number; refused: Readonly<Record<string, number>> };
}

export function createTimeseriesTaskDestination(options: {
  readonly config: TaskPointsConfig;
  readonly series: TimeseriesClient;
  readonly clock: Clock;
  /** OUTAGE_RETRY_DELAYS_MS by default. */
  readonly retryDelaysMs?: readonly number[];
  /** The zone of the local times in the `_json` fields; the process's own by default. */
  readonly timeZone?: string;
}): TimeseriesTaskDestination {
  const { config, series, clock } = options;
  const delays = options.retryDelaysMs ?? OUTAGE_RETRY_DELAYS_MS;
  let failedWrites = 0;
  const refused: Record<string, number> = {};

  function refusedError(refusal: TimeseriesRefusal): AlertSendError {
    failedWrites += 1;
    refused[refusal.reason] = (refused[refusal.reason] ?? 0) + 1;
    return new AlertSendError(
      `the time-series database refused the point (${refusal.reason}): ${refusal.detail}`,
    );
  }

  /** The write, again after each delay while it meets an outage; the last outage fails the send. */
  async function writeThroughOutages(
    write: () => Promise<TimeseriesRefusal | undefined>,
  ): Promise<TimeseriesRefusal | undefined> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await write();
      } catch (error) {
        failedWrites += 1;
        const delay = delays[attempt];
        if (delay === undefined) {
          const reason = error instanceof Error ? error.message : String(error);
          throw new AlertSendError(`the point could not be written in ${attempt + 1} attempts: ${reason}`, {
            cause: error,
          });
        }
        await new Promise<void>((resolve) => clock.setTimeout(resolve, delay));
      }
    }
  }

  return {
    name: TIMESERIES_ALERT_DESTINATION,
    handles: (kind) => isTaskAlertKind(kind) && writesTaskPoints(kind, config),
    async send(alert) {
      const skipped = successPointSkipped(alert, config);
      if (skipped !== undefined) return { outcome: "skipped", reason: skipped };
      const point = taskPoint(alert, config, options.timeZone);
      if (point === undefined) return { outcome: "skipped", reason: `${alert.kind} has no point` };
      try {
        checkPoint(point);
      } catch (error) {
        if (error instanceof LineProtocolError)
          throw refusedError({
            reason: "unencodable",
            detail: error.message,
            count: 1,
            lines: [0],
            restStored: false,
          });
        throw error;
      }
      const refusal = await writeThroughOutages(() => writeAcceptingRefusals(1, () => series.write([point])));
      if (refusal !== undefined) throw refusedError(refusal);
      return { outcome: "sent", messages: 1 };
    },
    stats: () => ({ failedWrites, refused: { ...refused } }),
  };
}
