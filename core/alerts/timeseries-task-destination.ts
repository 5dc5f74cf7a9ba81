/**
 * Task alerts as time-series points (task-points.ts), written through the agent's one
 * time-series client, one point per alert as it comes. The rule for what the database refuses is
 * the one of every other write (write-accepting-refusals.ts): a refusal is counted by reason in
 * the destination metrics and the send fails with the server's words, never retried; an outage
 * (no answer, 5xx) fails the send too, and the dispatcher counts and shows it.
 */
import { checkPoint, LineProtocolError } from "../destinations/line-protocol.ts";
import type { TimeseriesRefusal } from "../destinations/timeseries-refusal.ts";
import { writeAcceptingRefusals } from "../destinations/write-accepting-refusals.ts";
import type { TimeseriesClient } from "../ports.ts";
import { type AlertDestination, AlertSendError } from "../task-events/alert-destination.ts";
import { successPointSkipped, type TaskPointsConfig, taskPoint, writesTaskPoints } from "./task-points.ts";

/** The destination's name in metrics, logs and the status page. */
export const TIMESERIES_ALERT_DESTINATION = "timeseriesdb";

export interface TimeseriesTaskDestination extends AlertDestination {
  /** Failed writes and refusals by reason, for `steward_destination_*` (destination-stats.ts). */
  stats(): { failedWrites: number; refused: Readonly<Record<string, number>> };
}

export function createTimeseriesTaskDestination(options: {
  readonly config: TaskPointsConfig;
  readonly series: TimeseriesClient;
  /** The zone of the local times in the `_json` fields; the process's own by default. */
  readonly timeZone?: string;
}): TimeseriesTaskDestination {
  const { config, series } = options;
  let failedWrites = 0;
  const refused: Record<string, number> = {};

  function refusedError(refusal: TimeseriesRefusal): AlertSendError {
    failedWrites += 1;
    refused[refusal.reason] = (refused[refusal.reason] ?? 0) + 1;
    return new AlertSendError(
      `the time-series database refused the point (${refusal.reason}): ${refusal.detail}`,
    );
  }

  return {
    name: TIMESERIES_ALERT_DESTINATION,
    handles: (kind) => writesTaskPoints(kind, config),
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
      let refusal: TimeseriesRefusal | undefined;
      try {
        refusal = await writeAcceptingRefusals(1, () => series.write([point]));
      } catch (error) {
        failedWrites += 1;
        throw new AlertSendError(`the point could not be written: ${(error as Error).message}`, {
          cause: error,
        });
      }
      if (refusal !== undefined) throw refusedError(refusal);
      return { outcome: "sent", messages: 1 };
    },
    stats: () => ({ failedWrites, refused: { ...refused } }),
  };
}
