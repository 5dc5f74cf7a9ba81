/**
 * A schedule expression, cron expression or time zone that is not acceptable: a 400 at the REST
 * edge, a configuration problem when a setting names it. Shared because the recurrence parser of
 * the configuration's timers raises it as the REST schedules do.
 */
/** A cron expression or time zone is not acceptable (400). */
export class InvalidScheduleError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "InvalidScheduleError";
  }
}
