/** The text of GET /v4/schedules/status: one line per job. */

export interface JobStatus {
  id: string;
  cronSchedule: string;
  timezone: string;
  running: boolean;
  /** Epoch ms of the next firing; undefined when stopped or the pattern never fires again. */
  next: number | undefined;
}

export function formatStatusLine(job: JobStatus): string {
  const next = job.next === undefined ? "-" : new Date(job.next).toISOString();
  return `${job.id} cron="${job.cronSchedule}" timezone=${job.timezone} state=${job.running ? "running" : "stopped"} next=${next}`;
}

export function formatStatusText(jobs: readonly JobStatus[]): string {
  return jobs.map((job) => `${formatStatusLine(job)}\n`).join("");
}
