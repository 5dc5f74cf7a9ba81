/**
 * The TaskRepository of task-event enrichment over the repository client (client certificate,
 * xrfkey, `platform.userHeader`, `platform.timeoutMs`, the caller's abort signal). Each call
 * reads its answer with repository-task-shapes.ts; a non-2xx answer or a body that is not what
 * the call returns is a PlatformResponseError naming the call, and an unknown task, app or user
 * (an empty list, a 404) is `undefined`. Enrichment sends no alert for an unknown task, so only
 * those two answers mean "unknown": every other status, a timeout or an unreadable body is an
 * outage, which still alerts.
 */
import { PlatformResponseError } from "../../platform/index.ts";
import type { TaskRepository } from "../../task-events/index.ts";
import { filterById } from "./qrs-filter.ts";
import type { RepositoryClient, RepositoryResponse } from "./repository-client.ts";
import {
  isObject,
  readApp,
  readEmails,
  readExecution,
  readOwner,
  readTask,
} from "./repository-task-shapes.ts";

const ok = (status: number) => status >= 200 && status < 300;

function failed(what: string, response: { status: number; body: unknown }): PlatformResponseError {
  const detail =
    typeof response.body === "string" && response.body !== "" ? `: ${response.body.slice(0, 200)}` : "";
  return new PlatformResponseError(`repository answered ${what} with HTTP ${response.status}${detail}`, {
    status: response.status,
  });
}

function wrongShape(what: string, expected: string, status: number): PlatformResponseError {
  return new PlatformResponseError(`repository answered ${what} with something other than ${expected}`, {
    status,
  });
}

/** The objects of a 2xx list answer; none for a 404 (the repository knows no such item). */
function listOf(response: RepositoryResponse, what: string): Readonly<Record<string, unknown>>[] {
  if (response.status === 404) return [];
  if (!ok(response.status)) throw failed(what, response);
  if (!Array.isArray(response.body)) throw wrongShape(what, "a list", response.status);
  return response.body.filter(isObject);
}

/** The object of a 2xx answer; undefined for a 404 (the repository knows no such item). */
function objectOf(response: RepositoryResponse, what: string): Readonly<Record<string, unknown>> | undefined {
  if (response.status === 404) return undefined;
  if (!ok(response.status)) throw failed(what, response);
  if (!isObject(response.body)) throw wrongShape(what, "an object", response.status);
  return response.body;
}

const path = (...segments: string[]) => `/qrs/${segments.map(encodeURIComponent).join("/")}`;

export function createTaskRepository(repository: RepositoryClient): TaskRepository {
  const get = (p: string, query: Record<string, string>, signal?: AbortSignal) =>
    repository.send("GET", p, query, signal);

  return {
    async task(taskId, signal) {
      const found = listOf(
        await get("/qrs/task/full", { filter: filterById(taskId) }, signal),
        "GET /qrs/task/full",
      );
      return found[0] === undefined ? undefined : readTask(found[0]);
    },
    async app(appId, signal) {
      const found = listOf(
        await get("/qrs/app/full", { filter: filterById(appId) }, signal),
        "GET /qrs/app/full",
      );
      return found[0] === undefined ? undefined : readApp(found[0]);
    },
    async executionResults(executionId, signal) {
      const what = "GET /qrs/executionresult/full";
      const response = await get(
        "/qrs/executionresult/full",
        { filter: `executionID eq ${executionId}` },
        signal,
      );
      return listOf(response, what).map(readExecution);
    },
    async appOwner(appId, signal) {
      const body = objectOf(await get(path("app", appId), {}, signal), "GET /qrs/app/{id}");
      return body === undefined ? undefined : readOwner(body.owner);
    },
    async userEmails(userId, signal) {
      const body = objectOf(await get(path("user", userId), {}, signal), "GET /qrs/user/{id}");
      return body === undefined ? undefined : readEmails(body);
    },
    async scriptLogTicket(method, execution, signal) {
      const [route, query] =
        method === "fileReference"
          ? ["scriptlog", { fileReferenceId: execution.fileReferenceId }]
          : ["scriptlogfile", { executionResultId: execution.resultId }];
      const what = `GET /qrs/reloadtask/{id}/${route}`;
      const body = objectOf(await get(path("reloadtask", execution.taskId, route), query, signal), what);
      const ticket = body?.value;
      if (typeof ticket !== "string" || ticket === "") {
        throw body === undefined
          ? failed(what, { status: 404, body: "" })
          : wrongShape(what, "a ticket", 200);
      }
      return ticket;
    },
    async downloadScriptLog(ticket, signal) {
      const what = "GET /qrs/download/reloadtask/{ticket}/scriptlog.txt";
      const response = await repository.sendForText(
        path("download", "reloadtask", ticket, "scriptlog.txt"),
        {},
        signal,
      );
      if (!ok(response.status)) throw failed(what, response);
      return response.body;
    },
  };
}
