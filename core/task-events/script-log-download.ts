/**
 * The script log of this execution: a ticket from the repository, then the download. Two
 * ticket calls exist — by the execution result's file reference (older platforms; that field
 * is deprecated) and by the execution result's id (newer platforms) — so the first is tried when
 * there is a file reference, and the second after it or instead of it.
 *
 * The log is often not downloadable the instant the run ends (the download answers 404 for a
 * moment), so there are `attempts` attempts, `retryDelayMs` apart, each reading the execution
 * result again, with `downloadDelayMs` between the ticket and the download. When every attempt
 * fails the log is "not available" with the last reason; the alert goes out all the same.
 *
 * Before those attempts comes one at once, with no wait between the ticket and the download: a
 * run read a while after it ended has its log already, and in a night of failing tasks most runs
 * wait behind others for a processing slot, so each of them would otherwise hold its slot through
 * a wait it no longer needs. When the log is not there yet this costs one ticket and one refused
 * download, and the paced attempts follow as before.
 */

import { available, type Enriched, notAvailable, type ScriptLog } from "../alerts/index.ts";
import type { Clock } from "../ports.ts";
import { describeError } from "../shared/describe-error.ts";
import { lookupWait } from "./lookup-wait.ts";
import type { RepositoryExecution, ScriptLogTicketMethod, TaskRepository } from "./task-repository.ts";

export interface ScriptLogOptions {
  readonly attempts: number;
  readonly retryDelayMs: number;
  readonly downloadDelayMs: number;
}

export interface ScriptLogDeps {
  readonly repository: TaskRepository;
  readonly clock: Clock;
  readonly signal?: AbortSignal | undefined;
}

const NO_REFERENCE = /^[0-]*$/;

export async function downloadScriptLog(
  execution: RepositoryExecution,
  options: ScriptLogOptions,
  deps: ScriptLogDeps,
): Promise<Enriched<ScriptLog>> {
  let current = execution;
  let found = await tryDownload(current, 0, deps);
  for (let attempt = 1; attempt <= Math.max(1, options.attempts) && typeof found === "string"; attempt++) {
    if (attempt > 1) {
      await lookupWait(options.retryDelayMs, deps.clock, deps.signal);
      current = (await reread(current, deps)) ?? current;
    }
    found = await tryDownload(current, options.downloadDelayMs, deps);
  }
  return typeof found === "string" ? notAvailable(found) : found;
}

/**
 * One attempt: a ticket by each method the execution allows, then the download `delayMs` later;
 * the log, or why there is none (a string). At shutdown the log is "not available" at once.
 */
async function tryDownload(
  execution: RepositoryExecution,
  delayMs: number,
  deps: ScriptLogDeps,
): Promise<Enriched<ScriptLog> | string> {
  const methods = ticketMethods(execution);
  if (methods.length === 0) return "the repository holds no script log for this execution";
  let reason = "";
  for (const method of methods) {
    try {
      const ticket = await deps.repository.scriptLogTicket(method, execution, deps.signal);
      if (delayMs > 0) await lookupWait(delayMs, deps.clock, deps.signal);
      return available(toScriptLog(await deps.repository.downloadScriptLog(ticket, deps.signal)));
    } catch (error) {
      if (deps.signal?.aborted) return notAvailable(`given up at shutdown: ${describeError(error)}`);
      reason = `downloading the script log failed: ${describeError(error)}`;
    }
  }
  return reason;
}

function ticketMethods(execution: RepositoryExecution): ScriptLogTicketMethod[] {
  const methods: ScriptLogTicketMethod[] = [];
  if (!NO_REFERENCE.test(execution.fileReferenceId)) methods.push("fileReference");
  if (execution.resultId !== "" && (methods.length > 0 || execution.scriptLogAvailable)) {
    methods.push("executionResult");
  }
  return methods;
}

/** The execution result read again (its file reference may have arrived); undefined when it cannot be. */
async function reread(
  execution: RepositoryExecution,
  deps: ScriptLogDeps,
): Promise<RepositoryExecution | undefined> {
  try {
    const results = await deps.repository.executionResults(execution.executionId, deps.signal);
    return results.find((result) => result.resultId === execution.resultId);
  } catch {
    return undefined;
  }
}

/** The downloaded text as lines (CRLF or LF), without the empty line after a final line end. */
export function toScriptLog(text: string): ScriptLog {
  const lines = text === "" ? [] : text.split(/\r?\n/);
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return { lines, lineCount: lines.length, characters: text.length };
}
