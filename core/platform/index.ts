/**
 * The platform module's only door: code outside core/platform/ imports this file and nothing else
 * of the module, so its files can be rearranged without touching their users. It gives what
 * Steward does with the Qlik Sense platform: the app and task-start use cases of the REST API and
 * the broker (with the start filter and the starts' counts), the scheduler's task starter, the
 * readings of the engine's health and a virtual proxy's sessions, the request schemas, and the
 * platform's typed errors that the edges turn into answers.
 */
export { dumpApp, listApps, requestAppReload } from "./apps.ts";
export { createBrokerTaskStarts } from "./broker-task-starts.ts";
export { readEngineHealth } from "./engine-health.ts";
export {
  AppNotFoundError,
  PlatformCallAbortedError,
  PlatformCertificateError,
  PlatformConnectionClosedError,
  PlatformError,
  PlatformResponseError,
  PlatformTimeoutError,
  PlatformUnreachableError,
  TaskNotFoundError,
  TaskNotStartedError,
} from "./errors.ts";
export { isGuid } from "./guid.ts";
export { readProxySessions } from "./proxy-sessions.ts";
export type { ResponseContext } from "./response-shape.ts";
export {
  AppIdParamSchema,
  AppReloadBodySchema,
  TaskStartBodySchema,
  TaskStartQuerySchema,
} from "./schemas.ts";
export {
  startReloadTasks,
  type TaskStartKeyValueStore,
  TaskStartRefusedError,
} from "./start-reload-tasks.ts";
export { allowsNothing, createStartTaskFilter, type StartTaskFilter } from "./start-task-filter.ts";
export { createTaskStartCounts, type TaskStartCounts } from "./task-start-counts.ts";
export { createPlatformTaskStarter } from "./task-starter.ts";
export { virtualProxyPrefix } from "./virtual-proxy.ts";
