/**
 * What task-event enrichment asks of the repository, one call each; the platform adapter
 * (core/adapters/platform/repository-task-events.ts) answers it over mutual TLS. Something the
 * repository does not know is `undefined`; a call that fails (unreachable, timeout, an error
 * status, an answer of the wrong shape) throws the platform's typed errors with a message that
 * says which call and why. Every call gives up when `signal` aborts (at shutdown). Its contract
 * suite is test/contracts/task-repository.contract.ts.
 */
import type { AppInfo, ExecutionInfo, TaskInfo } from "../alerts/index.ts";

/** An execution result with what the script log download needs. */
export interface RepositoryExecution extends ExecutionInfo {
  /** The execution result's own id (the newer script log call takes it). */
  readonly resultId: string;
  readonly taskId: string;
  /** All zeros when the repository holds no script log reference (yet). */
  readonly fileReferenceId: string;
  readonly scriptLogAvailable: boolean;
}

export interface RepositoryTask extends TaskInfo {
  /** The task's app, `''` for tasks without one. */
  readonly appId: string;
  /** The task's latest execution result (not necessarily the event's execution). */
  readonly lastExecution: RepositoryExecution | undefined;
}

/** The owner as the app names it: the user's id and names, without email addresses. */
export interface OwnerReference {
  readonly id: string;
  readonly name: string;
  readonly userDirectory: string;
  readonly userId: string;
}

export interface RepositoryApp extends AppInfo {
  readonly owner: OwnerReference | undefined;
}

/** Which of the repository's two script log calls: by file reference (older platforms) or by execution result (newer). */
export type ScriptLogTicketMethod = "fileReference" | "executionResult";

export interface TaskRepository {
  /** `GET /qrs/task/full?filter=id eq <id>`: a task of any type. */
  task(taskId: string, signal?: AbortSignal): Promise<RepositoryTask | undefined>;
  /** `GET /qrs/app/full?filter=id eq <id>`. */
  app(appId: string, signal?: AbortSignal): Promise<RepositoryApp | undefined>;
  /** `GET /qrs/executionresult/full?filter=executionID eq <id>`: the results of one execution. */
  executionResults(executionId: string, signal?: AbortSignal): Promise<RepositoryExecution[]>;
  /** `GET /qrs/app/<id>`: the app's owner. */
  appOwner(appId: string, signal?: AbortSignal): Promise<OwnerReference | undefined>;
  /** `GET /qrs/user/<id>`: the user's `email` attributes. */
  userEmails(userId: string, signal?: AbortSignal): Promise<string[] | undefined>;
  /** The ticket that downloads a script log (`GET /qrs/reloadtask/<task>/scriptlog` or `/scriptlogfile`). */
  scriptLogTicket(
    method: ScriptLogTicketMethod,
    execution: RepositoryExecution,
    signal?: AbortSignal,
  ): Promise<string>;
  /** `GET /qrs/download/reloadtask/<ticket>/scriptlog.txt`: the log's text. */
  downloadScriptLog(ticket: string, signal?: AbortSignal): Promise<string>;
}
