/**
 * A part whose state the status board shows (`GET /status`): `starting`, then `running`
 * (`listening` for a listener, with its URL), `stopping`, `stopped`, or `failed` with the reason
 * when its start threw. `details` adds what the started part reports (a poller's stats).
 */
import type { StatusBoard, StatusSection } from "../../core/monitoring/index.ts";
import type { Stoppable } from "../../core/ports.ts";
import type { NamedPart } from "../start-in-order.ts";

export type PartState = "starting" | "running" | "listening" | "stopping" | "stopped" | "failed";

export interface TrackOptions<S extends Stoppable> {
  board: StatusBoard;
  section: StatusSection;
  /** Shown name (default: the part's name). */
  label?: string;
  /** The state once started (`listening` for listeners). */
  runningState?: PartState;
  details?: (part: S) => Record<string, unknown>;
}

/** A listener's row: `listening`, with its URL, once started. */
export function listening(board: StatusBoard, label: string): TrackOptions<Stoppable> {
  return { board, section: "listeners", label, runningState: "listening" };
}

/** Starts `start` now as a part the board tracks (trackPart). */
export function startTracked<S extends Stoppable>(
  name: string,
  start: () => Promise<S>,
  options: TrackOptions<S>,
): Promise<Stoppable> {
  return trackPart({ name, start }, options).start();
}

export function trackPart<S extends Stoppable>(
  part: { name: string; start(): Promise<S> },
  options: TrackOptions<S>,
): NamedPart {
  let state: PartState = "starting";
  let started: S | undefined;
  let reason: string | undefined;
  options.board.set(options.section, options.label ?? part.name, () => ({
    state,
    ...(reason === undefined ? {} : { reason }),
    ...("url" in (started ?? {}) ? { url: (started as unknown as { url: string }).url } : {}),
    ...(started !== undefined && options.details !== undefined ? options.details(started) : {}),
  }));
  return {
    name: part.name,
    async start() {
      try {
        started = await part.start();
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
