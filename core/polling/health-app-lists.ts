/**
 * The app lists behind the `apps` measurement's `*_names` fields: of one of the health check's doc
 * lists (active, loaded, in memory), ids starting with `SessionApp` form the session-app list as
 * they are; every other id is replaced by its name from the app-name cache (looked up lower-cased;
 * an unknown id is kept as it is). Both lists are sorted (code-unit order, as Butler SOS sorts
 * them).
 */
import type { AppNameCache } from "../ports.ts";

export const SESSION_APP_PREFIX = "SessionApp";

export interface AppLists {
  /** Names of the apps (ids of unknown apps), sorted. */
  readonly names: readonly string[];
  /** Ids of the session apps, sorted. */
  readonly sessionApps: readonly string[];
}

export function appLists(ids: readonly string[], appNames: AppNameCache): AppLists {
  const names: string[] = [];
  const sessionApps: string[] = [];
  for (const id of ids) {
    if (id.startsWith(SESSION_APP_PREFIX)) sessionApps.push(id);
    else names.push(appNames.nameOf(id.toLowerCase()) ?? id);
  }
  return { names: names.sort(), sessionApps: sessionApps.sort() };
}
