/**
 * Platform routes of the management API (spec document 2 "Apps" and "Reload tasks"):
 * PUT /v4/app/{appId}/reload, GET /v4/platformappdump/{appId} and /v4/app/{appId}/dump,
 * GET /v4/platformlistapps and /v4/apps/list, PUT|POST /v4/reloadtask/{taskId}/start.
 * Each group is registered only when its endpointsEnable key is true (otherwise: 404).
 * Errors: 400 invalid input, 404 unknown app, 502 platform unreachable/failed (with the reason).
 */
import type { Context, Env, Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import * as v from "valibot";
import type { EndpointsEnableConfig } from "../../../core/config/index.ts";
import { dumpApp, listApps, requestAppReload } from "../../../core/platform/apps.ts";
import { AppNotFoundError, PlatformError } from "../../../core/platform/errors.ts";
import {
  AppIdParamSchema,
  AppReloadBodySchema,
  describeIssues,
  TaskStartBodySchema,
  TaskStartQuerySchema,
} from "../../../core/platform/schemas.ts";
import { startReloadTasks, type TaskStartKeyValueStore } from "../../../core/platform/start-reload-tasks.ts";
import type { Logger, PlatformClient } from "../../../core/ports.ts";

export interface PlatformRoutesDeps {
  readonly platform: PlatformClient;
  /** The key-value store when `keyValueStore.enable` is true; undefined ignores keyvaluestore items. */
  readonly kv?: TaskStartKeyValueStore | undefined;
  readonly logger: Logger;
  readonly endpointsEnable: Pick<
    EndpointsEnableConfig,
    "appReload" | "appDump" | "appList" | "reloadTaskStart"
  >;
  /** Receives each background app reload, so that shutdown can wait for it. */
  readonly trackBackgroundWork?: (work: Promise<unknown>) => void;
}

const REASONS: Record<number, string> = { 400: "Bad Request", 404: "Not Found", 502: "Bad Gateway" };

function errorResponse(c: Context, statusCode: 400 | 404 | 502, message: string): Response {
  return c.json({ statusCode, error: REASONS[statusCode], message }, statusCode as ContentfulStatusCode);
}

class InvalidInputError extends Error {
  override name = "InvalidInputError";
}

/** Parses an optional JSON body: an empty body yields `whenEmpty`. */
async function readJsonBody(c: Context, whenEmpty: unknown): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === "") return whenEmpty;
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidInputError("body: not valid JSON");
  }
}

function validate<const S extends v.GenericSchema>(
  schema: S,
  input: unknown,
  where: string,
): v.InferOutput<S> {
  const parsed = v.safeParse(schema, input);
  if (!parsed.success) throw new InvalidInputError(describeIssues(where, parsed.issues));
  return parsed.output;
}

/** Maps the errors this module knows; anything else goes to the app's error handler. */
function handleErrors(logger: Logger, handler: (c: Context) => Promise<Response>) {
  return async (c: Context): Promise<Response> => {
    try {
      return await handler(c);
    } catch (error) {
      if (error instanceof InvalidInputError) return errorResponse(c, 400, error.message);
      if (error instanceof AppNotFoundError) return errorResponse(c, 404, error.message);
      if (error instanceof PlatformError) {
        logger.warn("platform call failed", { path: c.req.path, reason: error.message });
        return errorResponse(c, 502, error.message);
      }
      throw error;
    }
  };
}

/** Registers the enabled platform routes on `app` (whatever Env the REST app declares). */
export function registerPlatformRoutes<E extends Env>(app: Hono<E>, deps: PlatformRoutesDeps): void {
  const { platform, logger, endpointsEnable } = deps;
  const useCaseDeps = { platform, logger };

  if (endpointsEnable.appReload) {
    app.put(
      "/v4/app/:appId/reload",
      handleErrors(logger, async (c) => {
        const { appId } = validate(AppIdParamSchema, { appId: c.req.param("appId") }, "params");
        const body = validate(AppReloadBodySchema, await readJsonBody(c, {}), "body");
        const accepted = await requestAppReload(useCaseDeps, { appId, ...body });
        deps.trackBackgroundWork?.(accepted.completion);
        return c.json({ appId: accepted.appId }, 202);
      }),
    );
  }

  if (endpointsEnable.appDump) {
    const dump = handleErrors(logger, async (c) => {
      const { appId } = validate(AppIdParamSchema, { appId: c.req.param("appId") }, "params");
      return c.json(await dumpApp(useCaseDeps, appId), 200);
    });
    app.get("/v4/platformappdump/:appId", dump);
    app.get("/v4/app/:appId/dump", dump);
  }

  if (endpointsEnable.appList) {
    const list = handleErrors(logger, async (c) => c.json(await listApps(useCaseDeps), 200));
    app.get("/v4/platformlistapps", list);
    app.get("/v4/apps/list", list);
  }

  if (endpointsEnable.reloadTaskStart) {
    app.on(
      ["PUT", "POST"],
      "/v4/reloadtask/:taskId/start",
      handleErrors(logger, async (c) => {
        const query = validate(TaskStartQuerySchema, c.req.query(), "querystring");
        const items = validate(TaskStartBodySchema, await readJsonBody(c, []), "body");
        const result = await startReloadTasks(
          { platform, keyValues: deps.kv, logger },
          { taskId: c.req.param("taskId") ?? "-", allTaskIdsMustExist: query.allTaskIdsMustExist, items },
        );
        return c.json(result, 200);
      }),
    );
  }
}
