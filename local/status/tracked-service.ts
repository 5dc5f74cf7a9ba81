/**
 * A service whose state the status board shows (`GET /status`): `starting`, then `running`
 * (`listening` for a listener, with its URL), `stopping`, `stopped`, or `failed` with the reason
 * when its start threw. `details` adds what the started service reports (a poller's stats).
 */
import type { StatusBoard, StatusSection } from "../../core/monitoring/status-board.ts";
import type { Service } from "../../core/ports.ts";
import type { NamedService } from "../start-in-order.ts";

export type ServiceState = "starting" | "running" | "listening" | "stopping" | "stopped" | "failed";

export interface TrackOptions<S extends Service> {
  board: StatusBoard;
  section: StatusSection;
  /** Shown name (default: the service's name). */
  label?: string;
  /** The state once started (`listening` for listeners). */
  runningState?: ServiceState;
  details?: (service: S) => Record<string, unknown>;
}

/** A listener's row: `listening`, with its URL, once started. */
export function listening(board: StatusBoard, label: string): TrackOptions<Service> {
  return { board, section: "listeners", label, runningState: "listening" };
}

/** Starts `start` now as a service the board tracks (trackService). */
export function startTracked<S extends Service>(
  name: string,
  start: () => Promise<S>,
  options: TrackOptions<S>,
): Promise<Service> {
  return trackService({ name, start }, options).start();
}

export function trackService<S extends Service>(
  service: { name: string; start(): Promise<S> },
  options: TrackOptions<S>,
): NamedService {
  let state: ServiceState = "starting";
  let started: S | undefined;
  let reason: string | undefined;
  options.board.set(options.section, options.label ?? service.name, () => ({
    state,
    ...(reason === undefined ? {} : { reason }),
    ...("url" in (started ?? {}) ? { url: (started as unknown as { url: string }).url } : {}),
    ...(started !== undefined && options.details !== undefined ? options.details(started) : {}),
  }));
  return {
    name: service.name,
    async start() {
      try {
        started = await service.start();
      } catch (error) {
        state = "failed";
        reason = error instanceof Error ? error.message : String(error);
        throw error;
      }
      state = options.runningState ?? "running";
      const running = started;
      return {
        async stop() {
          state = "stopping";
          await running.stop();
          state = "stopped";
        },
      };
    },
  };
}
