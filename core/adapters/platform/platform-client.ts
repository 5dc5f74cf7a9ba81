/**
 * The PlatformClient adapter for Qlik Sense Enterprise on Windows: repository API (QRS) for
 * tasks (always as full objects, whose tags and custom properties the task start filter reads, so
 * a start needs no second call), app existence and the app catalogue (app names), engine API (JSON-RPC over WebSocket) for reloads, dumps and the app
 * list. Certificates are loaded once by the caller (loadPlatformTlsMaterial) and passed in.
 */

import {
  AppNotFoundError,
  PlatformResponseError,
  TaskNotFoundError,
  TaskNotStartedError,
} from "../../platform/index.ts";
import type {
  AppDump,
  AppReloadOptions,
  Clock,
  Logger,
  PlatformApp,
  PlatformClient,
  PlatformTask,
} from "../../ports.ts";
import { dumpDocument } from "./app-dump.ts";
import {
  EngineRequestError,
  type EngineSession,
  GLOBAL_HANDLE,
  openEngineSession,
} from "./engine-session.ts";
import type { PlatformConnectionOptions, PlatformTlsMaterial } from "./options.ts";
import { filterByCustomProperty, filterById, filterByTag } from "./qrs-filter.ts";
import { readRepositoryApps } from "./repository-apps.ts";
import { createRepositoryClient, type RepositoryResponse } from "./repository-client.ts";
import { customProperties, tagNames } from "./repository-task-shapes.ts";

export interface QlikPlatformClientOptions {
  readonly connection: PlatformConnectionOptions;
  readonly tls: PlatformTlsMaterial;
  readonly clock: Clock;
  readonly logger: Logger;
}

export interface ClosablePlatformClient extends PlatformClient {
  /** Releases pooled repository connections. */
  close(): void;
}

/** Engine error code LOCERR_APP_NOT_FOUND. */
const ENGINE_APP_NOT_FOUND = 1003;
const EMPTY_GUID = "00000000-0000-0000-0000-000000000000";

function listEntries(response: RepositoryResponse, what: string): unknown[] {
  if (!Array.isArray(response.body)) {
    throw new PlatformResponseError(`repository answered ${what} with something other than a list`, {
      status: response.status,
    });
  }
  return response.body;
}

function toNamedEntities(response: RepositoryResponse, what: string): { id: string; name: string }[] {
  return listEntries(response, what).map((entry: unknown) => {
    const record = (entry ?? {}) as { id?: unknown; name?: unknown };
    return { id: String(record.id ?? ""), name: String(record.name ?? "") };
  });
}

/** The repository's full task objects: id and name, and the tags and custom properties a start filter reads. */
function toTasks(response: RepositoryResponse, what: string): PlatformTask[] {
  return listEntries(response, what).map((entry: unknown) => {
    const record = (entry ?? {}) as {
      id?: unknown;
      name?: unknown;
      tags?: unknown;
      customProperties?: unknown;
    };
    return {
      id: String(record.id ?? ""),
      name: String(record.name ?? ""),
      tags: tagNames(record.tags),
      customProperties: customProperties(record.customProperties),
    };
  });
}

function expectOk(response: RepositoryResponse, what: string): RepositoryResponse {
  if (response.status >= 200 && response.status < 300) return response;
  const detail = typeof response.body === "string" && response.body !== "" ? `: ${response.body}` : "";
  throw new PlatformResponseError(`repository answered ${what} with HTTP ${response.status}${detail}`, {
    status: response.status,
  });
}

export function createQlikPlatformClient(options: QlikPlatformClientOptions): ClosablePlatformClient {
  const repository = createRepositoryClient(options);
  const logger = options.logger;

  async function listEntities(
    path: string,
    filter: string | undefined,
  ): Promise<{ id: string; name: string }[]> {
    const what = `GET ${path}`;
    const response = await repository.send("GET", path, filter === undefined ? {} : { filter });
    return toNamedEntities(expectOk(response, what), what);
  }

  /** `GET /qrs/task/full`: tasks of every type, with their tags and custom properties. */
  async function listTasks(filter: string): Promise<PlatformTask[]> {
    const what = "GET /qrs/task/full";
    return toTasks(expectOk(await repository.send("GET", "/qrs/task/full", { filter }), what), what);
  }

  async function withSession<T>(appId: string, use: (session: EngineSession) => Promise<T>): Promise<T> {
    const session = await openEngineSession(options, appId);
    try {
      return await use(session);
    } finally {
      await session.close();
    }
  }

  async function openDoc(session: EngineSession, appId: string, noData: boolean): Promise<number> {
    try {
      const result = (await session.call(GLOBAL_HANDLE, "OpenDoc", { qDocName: appId, qNoData: noData })) as {
        qReturn?: { qHandle?: unknown };
      };
      const handle = result?.qReturn?.qHandle;
      if (typeof handle !== "number")
        throw new PlatformResponseError("engine answered OpenDoc without a handle");
      return handle;
    } catch (error) {
      if (error instanceof EngineRequestError && error.code === ENGINE_APP_NOT_FOUND)
        throw new AppNotFoundError(appId);
      throw error;
    }
  }

  return {
    async findTaskById(taskId): Promise<PlatformTask | undefined> {
      return (await listTasks(filterById(taskId)))[0];
    },
    findTasksByTag(tag) {
      return listTasks(filterByTag(tag));
    },
    findTasksByCustomProperty(name, value) {
      return listTasks(filterByCustomProperty(name, value));
    },
    async startTask(taskId) {
      const what = `POST /qrs/task/${taskId}/start/synchronous`;
      const response = await repository.send(
        "POST",
        `/qrs/task/${encodeURIComponent(taskId)}/start/synchronous`,
      );
      if (response.status === 404) throw new TaskNotFoundError(taskId);
      expectOk(response, what);
      // The repository answers the execution session id; an empty GUID means it did not start.
      const body = response.body as { value?: unknown } | string | undefined;
      const sessionId = typeof body === "string" ? body : body?.value;
      if (sessionId === EMPTY_GUID) throw new TaskNotStartedError(taskId);
      logger.verbose("platform task started", { taskId, executionSessionId: String(sessionId ?? "") });
    },
    async findAppById(appId): Promise<PlatformApp | undefined> {
      return (await listEntities("/qrs/app", filterById(appId)))[0];
    },
    async listRepositoryApps(signal): Promise<PlatformApp[]> {
      const what = "GET /qrs/app";
      const response = expectOk(await repository.send("GET", "/qrs/app", {}, signal), what);
      return readRepositoryApps(response.body, { what, status: response.status });
    },
    listApps() {
      return withSession("engineData", async (session) => {
        const result = (await session.call(GLOBAL_HANDLE, "GetDocList")) as { qDocList?: unknown };
        if (!Array.isArray(result?.qDocList))
          throw new PlatformResponseError("engine answered GetDocList without a list");
        return result.qDocList.map((doc: unknown) => {
          const entry = (doc ?? {}) as { qDocId?: unknown; qDocName?: unknown };
          return { id: String(entry.qDocId ?? ""), name: String(entry.qDocName ?? "") };
        });
      });
    },
    reloadApp(appId, reload: AppReloadOptions) {
      return withSession(appId, async (session) => {
        const doc = await openDoc(session, appId, false);
        const result = (await session.call(doc, "DoReload", {
          qMode: reload.mode,
          qPartial: reload.partial,
          qDebug: false,
        })) as { qReturn?: unknown };
        const success = result?.qReturn === true;
        if (success) await session.call(doc, "DoSave", { qFileName: "" });
        return success;
      });
    },
    dumpApp(appId): Promise<AppDump> {
      return withSession(appId, async (session) =>
        dumpDocument(session, await openDoc(session, appId, true), appId),
      );
    },
    close: () => repository.close(),
  };
}
