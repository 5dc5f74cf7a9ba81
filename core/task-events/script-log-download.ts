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
 */

import { available, type Enriched, notAvailable, type ScriptLog } from "../alerts/index.ts";
import type { Clock } from "../ports.ts";
import { describeError } from "../shared/describe-error.ts";
import { abortableWait } from "./abortable-wait.ts";
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
  let reason = "";
  for (let attempt = 1; attempt <= Math.max(1, options.attempts); attempt++) {
    if (attempt > 1) {
      await abortableWait(options.retryDelayMs, deps.clock, deps.signal);
      current = (await reread(current, deps)) ?? current;
    }
    const methods = ticketMethods(current);
    if (methods.length === 0) {
      reason = "the repository holds no script log for this execution";
      continue;
    }
    for (const method of methods) {
      try {
        const ticket = await deps.repository.scriptLogTicket(method, current, deps.signal);
        await abortableWait(options.downloadDelayMs, deps.clock, deps.signal);
        return available(toScriptLog(await deps.repository.downloadScriptLog(ticket, deps.signal)));
      } catch (error) {
        if (deps.signal?.aborted) return notAvailable(`given up at shutdown: ${describeError(error)}`);
        reason = `downloading the script log failed: ${describeError(error)}`;
      }
    }
  }
  return notAvailable(reason);
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
