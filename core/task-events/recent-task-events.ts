/**
 * The last task events, newest first, for the status page: what happened, to which task and
 * app, on which node, when, and what each alert destination did with it. A fixed number is kept
 * (20), so memory does not grow with the events.
 */
import type { AlertOutcome } from "../alerts/index.ts";

export interface RecentTaskEvent {
  /** The alert kind (`reloadTaskFailure`, ...) or, without one, the event's kind and why (`distribute (unresolved)`). */
  readonly kind: string;
  readonly taskName: string;
  readonly appName: string;
  /** The node that ran the task, or the one that logged the event when the run's node is not known. */
  readonly node: string;
  /** ISO time Steward received the event. */
  readonly at: string;
  readonly executionId: string;
  /** Per destination, what it did; empty when no destination handles the kind. */
  readonly alerts: Readonly<Record<string, AlertOutcome>>;
  /** The lookups that failed, with the reason. */
  readonly unavailable: Readonly<Record<string, string>>;
}

export interface RecentTaskEvents {
  add(entry: RecentTaskEvent): void;
  /** Newest first. */
  list(): RecentTaskEvent[];
}

export const RECENT_TASK_EVENTS = 20;

export function createRecentTaskEvents(limit = RECENT_TASK_EVENTS): RecentTaskEvents {
  const entries: RecentTaskEvent[] = [];
  return {
    add(entry) {
      entries.unshift(entry);
      if (entries.length > limit) entries.length = limit;
    },
    list: () => [...entries],
  };
}
