/**
 * App use cases: reload (asynchronous, with follow-up task starts), dump and list.
 * Reload answers as soon as the platform confirmed the app exists; the reload itself, the save
 * and the follow-up task starts run afterwards and are only logged (the caller has its 202).
 */
import type { AppDump, Logger, PlatformApp, PlatformClient, ReloadMode } from "../ports.ts";
import { AppNotFoundError } from "./errors.ts";
import { normalizeGuid } from "./guid.ts";

export interface AppReloadRequest {
  readonly appId: string;
  readonly reloadMode: ReloadMode;
  readonly partialReload: boolean;
  readonly startPlatformTaskOnSuccess: readonly string[];
  readonly startPlatformTaskOnFailure: readonly string[];
}

export interface AppReloadOutcome {
  readonly appId: string;
  readonly reloaded: boolean;
  readonly startedTaskIds: readonly string[];
  readonly failedTaskIds: readonly string[];
}

export interface AppUseCaseDeps {
  readonly platform: PlatformClient;
  readonly logger: Logger;
}

export interface AcceptedAppReload {
  readonly appId: string;
  /** Settles when the reload and its follow-up starts are done; never rejects. */
  readonly completion: Promise<AppReloadOutcome>;
}

async function runReload(
  deps: AppUseCaseDeps,
  request: AppReloadRequest,
  appId: string,
): Promise<AppReloadOutcome> {
  const { platform, logger } = deps;
  let reloaded = false;
  try {
    reloaded = await platform.reloadApp(appId, { mode: request.reloadMode, partial: request.partialReload });
    if (reloaded) logger.info("app reload succeeded", { appId });
    else logger.warn("app reload failed: the engine reported a script error", { appId });
  } catch (error) {
    logger.error("app reload failed", {
      appId,
      reason: error instanceof Error ? error.message : String(error),
    });
  }
  const followUps = reloaded ? request.startPlatformTaskOnSuccess : request.startPlatformTaskOnFailure;
  const startedTaskIds: string[] = [];
  const failedTaskIds: string[] = [];
  for (const taskId of new Set(followUps.map(normalizeGuid))) {
    try {
      await platform.startTask(taskId);
      startedTaskIds.push(taskId);
    } catch (error) {
      failedTaskIds.push(taskId);
      logger.error("app reload: follow-up task not started", {
        appId,
        taskId,
        reason: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return { appId, reloaded, startedTaskIds, failedTaskIds };
}

/** Checks the app exists (AppNotFoundError otherwise), then reloads it in the background. */
export async function requestAppReload(
  deps: AppUseCaseDeps,
  request: AppReloadRequest,
): Promise<AcceptedAppReload> {
  const appId = normalizeGuid(request.appId);
  if ((await deps.platform.findAppById(appId)) === undefined) throw new AppNotFoundError(request.appId);
  return { appId: request.appId, completion: runReload(deps, request, appId) };
}

export function dumpApp(deps: AppUseCaseDeps, appId: string): Promise<AppDump> {
  return deps.platform.dumpApp(normalizeGuid(appId));
}

export function listApps(deps: AppUseCaseDeps): Promise<PlatformApp[]> {
  return deps.platform.listApps();
}
