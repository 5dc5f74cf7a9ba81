/**
 * The schedules module's only door: code outside core/schedules/ imports this file and nothing
 * else of the module, so its files can be rearranged without touching the REST edge and the
 * runtimes that use them. It gives the schedule use cases, the scheduler that fires them, the
 * task starter that only logs, the recurring timer of the agent's parts, their errors and order.
 */
export { ScheduleLeaseError, ScheduleNotFoundError, ScheduleStoreError } from "./errors.ts";
export { createLoggingTaskStarter } from "./logging-task-starter.ts";
export { byCreation } from "./order.ts";
export { type RecurringTimer, startRecurringTimer } from "./recurring-timer.ts";
export { createScheduleManager, type ScheduleManager } from "./schedule-manager.ts";
export { type ScheduleRunner, type Scheduler, type SchedulerDeps, startScheduler } from "./scheduler.ts";
export { readStoredSchedule } from "./stored-schedule.ts";
