/**
 * What each reading of a watched Windows service means, given the readings before it: the first
 * successful reading is the baseline (no alert: Steward cannot know what the service did before it
 * started watching, and a restart of Steward must not alert on every stopped service again); a
 * later reading in another state is a change (`stopped`, `started`, or `changed` for the pending
 * and paused states); a failed reading (host unreachable, access denied, timeout) is neither and
 * leaves the last known state as it was, so a service that stopped while its host could not be
 * read is alerted once the host answers again. Of a run of failed readings of one service with the
 * same cause only the first is `newFailure`, for one WARN per outage instead of one per poll; every
 * one of them is still counted by the caller.
 */
import type { ServiceReading, ServiceReadingFailure, ServiceState } from "./service-state-reader.ts";

export type ServiceChange = "stopped" | "started" | "changed";

export type ServiceWatchOutcome =
  | { readonly kind: "baseline"; readonly state: ServiceState }
  | { readonly kind: "same"; readonly state: ServiceState; readonly recovered: boolean }
  | {
      readonly kind: "change";
      readonly change: ServiceChange;
      readonly previous: ServiceState;
      readonly state: ServiceState;
      readonly recovered: boolean;
    }
  | { readonly kind: "failed"; readonly failure: ServiceReadingFailure; readonly newFailure: boolean };

export interface ServiceWatch {
  /** The meaning of `reading` of `service` on `host`, remembered for the next one. */
  observe(host: string, service: string, reading: ServiceReading): ServiceWatchOutcome;
  /** The last known state of every service read successfully at least once. */
  states(): { host: string; service: string; state: ServiceState }[];
}

interface Known {
  host: string;
  service: string;
  state: ServiceState | undefined;
  /** The cause of the failed readings since the last successful one. */
  failing: ServiceReadingFailure | undefined;
}

function changeOf(state: ServiceState): ServiceChange {
  if (state === "STOPPED") return "stopped";
  if (state === "RUNNING") return "started";
  return "changed";
}

export function createServiceWatch(): ServiceWatch {
  const known = new Map<string, Known>();
  return {
    observe(host, service, reading) {
      const key = JSON.stringify([host, service]);
      const entry = known.get(key) ?? { host, service, state: undefined, failing: undefined };
      known.set(key, entry);
      if (!reading.ok) {
        const newFailure = entry.failing !== reading.failure;
        entry.failing = reading.failure;
        return { kind: "failed", failure: reading.failure, newFailure };
      }
      const recovered = entry.failing !== undefined;
      entry.failing = undefined;
      const previous = entry.state;
      entry.state = reading.state;
      if (previous === undefined) return { kind: "baseline", state: reading.state };
      if (previous === reading.state) return { kind: "same", state: reading.state, recovered };
      return { kind: "change", change: changeOf(reading.state), previous, state: reading.state, recovered };
    },
    states() {
      return [...known.values()].flatMap(({ host, service, state }) =>
        state === undefined ? [] : [{ host, service, state }],
      );
    },
  };
}
