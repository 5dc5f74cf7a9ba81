/**
 * Schedule expressions of the agent's own timers (`heartbeat.frequency`,
 * `uptimeMonitor.frequency`): the later.js text forms Butler SOS uses (`every 30 seconds`,
 * `every 1 hour`, `every 2 days`, `at 10:15 am`, …, parsed by `@breejs/later`, the maintained fork
 * of later.js) and 5- or 6-field cron expressions (parsed by croner, as the REST schedules are).
 * Anything else is a config error.
 *
 * Both kinds are evaluated in UTC: later.js text schedules always were (its default), and one
 * rule for both keeps `every 1 hour` and `0 * * * *` alike on every machine.
 */
import later from "@breejs/later";
import { Cron } from "croner";
import { InvalidScheduleError } from "./invalid-schedule-error.ts";

export interface Recurrence {
  /** The expression as configured. */
  readonly expression: string;
  readonly kind: "text" | "cron";
  /** The first occurrence strictly after `afterMs`, or undefined when there is none. */
  next(afterMs: number): number | undefined;
}

/** How many candidates are asked of later.js: it answers the start itself when inside a range. */
const TEXT_CANDIDATES = 3;

/** Parses a schedule expression; throws InvalidScheduleError naming both accepted forms. */
export function parseRecurrence(expression: string): Recurrence {
  const text = expression.trim();
  if (text === "") throw new InvalidScheduleError("Schedule expression must not be empty");
  const fields = text.split(/\s+/);
  if ((fields.length === 5 || fields.length === 6) && /^[\d*?/,\-LW#]/.test(text))
    return cronRecurrence(text);
  const parsed = later.parse.text(text);
  if (parsed.error !== -1 || parsed.schedules.length === 0) {
    throw new InvalidScheduleError(
      `'${expression}' is not a schedule: expected a later.js text schedule such as "every 30 seconds" ` +
        `or "every 1 hour", or a 5/6-field cron expression such as "*/5 * * * *"` +
        (parsed.error > 0 ? ` (not understood from "${text.slice(parsed.error)}")` : ""),
    );
  }
  const schedule = later.schedule(parsed);
  const next = (afterMs: number): number | undefined => {
    // later.js works in whole seconds and keeps a start's milliseconds: start on the second.
    const found = schedule.next(TEXT_CANDIDATES, new Date(Math.floor(afterMs / 1000) * 1000));
    // later.js answers 0 when nothing is left, a Date when asked for one, else a list.
    const answer: unknown = found;
    const list = Array.isArray(answer) ? (answer as Date[]) : answer instanceof Date ? [answer] : [];
    return list.map((date) => date.getTime()).find((ms) => ms > afterMs);
  };
  if (next(Date.UTC(2026, 0, 1)) === undefined) {
    throw new InvalidScheduleError(`'${expression}' never occurs`);
  }
  return { expression, kind: "text", next };
}

function cronRecurrence(text: string): Recurrence {
  let cron: Cron;
  try {
    cron = new Cron(text, { paused: true, timezone: "Etc/UTC", mode: "5-or-6-parts" });
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new InvalidScheduleError(`Invalid cron expression '${text}': ${reason}`, { cause });
  }
  return {
    expression: text,
    kind: "cron",
    next: (afterMs) => cron.nextRun(new Date(afterMs))?.getTime(),
  };
}

/** The gap between two upcoming occurrences (the interval of the values reported at each). */
export function typicalIntervalMs(recurrence: Recurrence, fromMs: number): number | undefined {
  const first = recurrence.next(fromMs);
  const second = first === undefined ? undefined : recurrence.next(first);
  const third = second === undefined ? undefined : recurrence.next(second);
  if (second === undefined || third === undefined) return undefined;
  // Butler SOS measures between the 3rd and 4th occurrences; the 2nd and 3rd avoid the
  // partial first range later.js answers when `fromMs` falls inside one.
  return third - second;
}
