/**
 * Cron expressions and time zones for schedules: 5 fields (minute precision) or 6 fields (leading
 * seconds), standard months 1–12 and weekdays 0–6 (7 = Sunday too), evaluated in the schedule's
 * IANA time zone by croner.
 */
import { Cron } from "croner";
import { InvalidScheduleError } from "../shared/invalid-schedule-error.ts";

/** Throws InvalidScheduleError unless the name is an IANA time zone this runtime knows. */
export function assertTimezone(timezone: string): void {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: timezone });
  } catch (cause) {
    throw new InvalidScheduleError(
      `Unknown time zone '${timezone}' (expected an IANA name such as Europe/Stockholm)`,
      {
        cause,
      },
    );
  }
  if (timezone.trim() === "") throw new InvalidScheduleError("Time zone must not be empty");
}

/** Parses a cron expression for a time zone; throws InvalidScheduleError when invalid. */
export function parseCron(cronSchedule: string, timezone: string): Cron {
  assertTimezone(timezone);
  const fields = cronSchedule.trim().split(/\s+/);
  if (fields.length !== 5 && fields.length !== 6) {
    throw new InvalidScheduleError(
      `Cron expression '${cronSchedule}' must have 5 fields (minute hour day month weekday) or 6 (with leading seconds)`,
    );
  }
  try {
    return new Cron(cronSchedule, { paused: true, timezone, mode: "5-or-6-parts" });
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new InvalidScheduleError(`Invalid cron expression '${cronSchedule}': ${reason}`, { cause });
  }
}

/** The first run strictly after `fromMs`, or undefined when the pattern never fires again. */
export function nextRunAfter(cron: Cron, fromMs: number): number | undefined {
  return cron.nextRun(new Date(fromMs))?.getTime();
}
