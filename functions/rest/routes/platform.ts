/**
 * Platform routes of the management API (apps and reload tasks):
 * PUT /v4/app/{appId}/reload, GET /v4/platformappdump/{appId} and /v4/app/{appId}/dump,
 * GET /v4/platformlistapps and /v4/apps/list, PUT|POST /v4/reloadtask/{taskId}/start.
 * Declared like every other group (the app serves a route only when its endpointsEnable key is
 * true). Errors (rest-errors.ts): 400 invalid input, 403 a task the start filter does not allow
 * (startTaskFilter; the allowed ones still start, the message names both), 404 unknown app, 502
 * platform unreachable/failed (with the reason). A missing body is read as `[]` (task start) or `{}` (reload).
 * The reload also takes Butler's `startQSEoWTaskOnSuccess|OnFailure` (member-aliases.ts).
 */
import * as v from "valibot";
import {
  AppIdParamSchema,
  AppNotFoundError,
  AppReloadBodySchema,
  dumpApp,
  listApps,
  PlatformError,
  requestAppReload,
  type StartTaskFilter,
  startReloadTasks,
  TaskStartBodySchema,
  type TaskStartCounts,
  type TaskStartKeyValueStore,
  TaskStartQuerySchema,
  TaskStartRefusedError,
} from "../../../core/platform/index.ts";
import type { Logger, PlatformClient } from "../../../core/ports.ts";
import { APP_RELOAD_ALIASES, withMemberAliases } from "../member-aliases.ts";
import { jsonResponse } from "../respond.ts";
import { defineRoute, type RouteSpec } from "../route.ts";

export interface PlatformRoutesDeps {
  readonly platform: PlatformClient;
  /** The key-value store when `keyValueStore.enable` is true; undefined ignores keyvaluestore items. */
  readonly kv?: TaskStartKeyValueStore | undefined;
  readonly logger: Logger;
  /** Receives each background app reload, so that shutdown can wait for it. */
  readonly trackBackgroundWork?: (work: Promise<unknown>) => void;
  /** Which tasks the task start may start (startTaskFilter); absent: every task. */
  readonly startFilter?: StartTaskFilter;
  /** Counts each task start's outcome under `rest` (steward_task_starts_total). */
  readonly startCounts?: TaskStartCounts;
}

const TaskRef = v.object({ taskId: v.string(), taskName: v.string() });
const TaskIdOnly = v.object({ taskId: v.string() });
const TaskStartResultSchema = v.object({
  tasksId: v.object({ started: v.array(TaskRef), invalid: v.array(TaskIdOnly), denied: v.array(TaskIdOnly) }),
  tasksTag: v.array(TaskRef),
  tasksTagDenied: v.array(v.object({ tag: v.string() })),
  tasksCP: v.array(TaskRef),
  tasksCPDenied: v.array(v.object({ name: v.string(), value: v.string() })),
});
const AppListSchema = v.array(v.object({ id: v.string(), name: v.string() }));
const AppDumpSchema = v.looseObject({ appId: v.string() });
const TaskIdParams = v.object({ taskId: v.string() });

const unreachable = { description: "The platform is unreachable, timed out or failed (reason in message)" };
const refused = {
  description:
    "startTaskFilter does not allow some of the tasks; the allowed ones were started (message names both)",
};
const appNotFound = { description: "The platform knows no app with this id" };

/**
 * Logs a platform failure (the caller gets 502 with the reason) or a task start the filter
 * refused (403) and rethrows it for rest-errors.
 */
async function loggingPlatformFailures<T>(logger: Logger, path: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof TaskStartRefusedError) {
      logger.warn("task start refused by startTaskFilter", { path, reason: error.message });
    } else if (error instanceof PlatformError && !(error instanceof AppNotFoundError)) {
      logger.warn("platform call failed", { path, reason: error.message });
    }
    throw error;
  }
}

export function platformRoutes(deps: PlatformRoutesDeps): RouteSpec[] {
  const { platform, logger } = deps;
  const useCaseDeps = { platform, logger };

  const reload = defineRoute({
    method: "PUT",
    path: "/v4/app/{appId}/reload",
    endpoint: "appReload",
    tag: "Apps",
    summary: "Reloads an app asynchronously, then starts the on-success or on-failure tasks",
    params: AppIdParamSchema,
    body: withMemberAliases(AppReloadBodySchema, APP_RELOAD_ALIASES),
    emptyBody: { whenEmpty: {} },
    responses: {
      202: { description: "Reload accepted", schema: v.object({ appId: v.string() }) },
      404: appNotFound,
      502: unreachable,
    },
    handler: async ({ params, body }, c) => {
      const accepted = await loggingPlatformFailures(logger, c.req.path, () =>
        requestAppReload(useCaseDeps, { appId: params.appId, ...body }),
      );
      deps.trackBackgroundWork?.(accepted.completion);
      return jsonResponse(c, { appId: accepted.appId }, 202);
    },
  });

  const dumpRoute = (path: string) =>
    defineRoute({
      method: "GET",
      path,
      endpoint: "appDump",
      tag: "Apps",
      summary:
        "Dumps an app: properties, script, sheets, stories, master items, variables, bookmarks, fields...",
      params: AppIdParamSchema,
      responses: {
        200: { description: "The app dump", schema: AppDumpSchema },
        404: appNotFound,
        502: unreachable,
      },
      handler: async ({ params }, c) =>
        jsonResponse(
          c,
          await loggingPlatformFailures(logger, c.req.path, () => dumpApp(useCaseDeps, params.appId)),
        ),
    });

  const listRoute = (path: string) =>
    defineRoute({
      method: "GET",
      path,
      endpoint: "appList",
      tag: "Apps",
      summary: "Lists the platform's apps as id and name",
      responses: { 200: { description: "The apps", schema: AppListSchema }, 502: unreachable },
      handler: async (_input, c) =>
        jsonResponse(c, await loggingPlatformFailures(logger, c.req.path, () => listApps(useCaseDeps))),
    });

  const taskStartRoute = (method: "PUT" | "POST") =>
    defineRoute({
      method,
      path: "/v4/reloadtask/{taskId}/start",
      endpoint: "reloadTaskStart",
      tag: "Reload tasks",
      summary:
        "Starts reload tasks named by id (path; '-' = none), items, tags and custom properties, each at most once",
      params: TaskIdParams,
      query: TaskStartQuerySchema,
      body: TaskStartBodySchema,
      emptyBody: { whenEmpty: [] },
      responses: {
        200: { description: "What was started, invalid or denied", schema: TaskStartResultSchema },
        403: refused,
        502: unreachable,
      },
      handler: async ({ params, query, body }, c) =>
        jsonResponse(
          c,
          await loggingPlatformFailures(logger, c.req.path, () =>
            startReloadTasks(
              {
                platform,
                keyValues: deps.kv,
                logger,
                filter: deps.startFilter,
                counts: deps.startCounts,
                source: "rest",
              },
              { taskId: params.taskId, allTaskIdsMustExist: query.allTaskIdsMustExist, items: body },
            ),
          ),
        ),
    });

  return [
    reload,
    dumpRoute("/v4/platformappdump/{appId}"),
    dumpRoute("/v4/app/{appId}/dump"),
    listRoute("/v4/platformlistapps"),
    listRoute("/v4/apps/list"),
    taskStartRoute("PUT"),
    taskStartRoute("POST"),
  ];
}
