/**
 * Errors of the schedule use cases, mapped to HTTP statuses at the REST edge; an expression that
 * is not a schedule is InvalidScheduleError (core/shared/invalid-schedule-error.ts), which the
 * configuration's own schedules raise too.
 */

/** No schedule has this id (404). */
export class ScheduleNotFoundError extends Error {
  constructor(readonly id: string) {
    super(`Schedule '${id}' not found`);
    this.name = "ScheduleNotFoundError";
  }
}

/** The schedule store could not read or write (500). */
export class ScheduleStoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ScheduleStoreError";
  }
}

/** Whether this process may start a schedule occurrence could not be settled (the store failed). */
export class ScheduleLeaseError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ScheduleLeaseError";
  }
}
