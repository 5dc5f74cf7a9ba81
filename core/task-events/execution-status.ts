/** The repository's execution status numbers of a task run and their names (as the management console shows them). */

const STATUS_TEXT: readonly string[] = [
  "NeverStarted",
  "Triggered",
  "Started",
  "Queued",
  "AbortInitiated",
  "Aborting",
  "Aborted",
  "FinishedSuccess",
  "FinishedFail",
  "Skipped",
  "Retry",
  "Error",
  "Reset",
  "DistributionQueue",
  "DistributionRunning",
];

/** `FinishedFail` for 8; `Unknown status <n>` for a number the repository did not define. */
export function executionStatusText(status: number): string {
  return STATUS_TEXT[status] ?? `Unknown status ${status}`;
}
