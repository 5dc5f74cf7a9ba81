/**
 * The engine performance monitor's filter: decides whether an engine API performance event is kept.
 * The app-specific filter is tried first — its entries in order, an entry accepting when its apps
 * match and its object type, object id and method selections all pass — then the all-apps filter
 * (app exclusions, object type, method). Comparisons are exact and case-sensitive, except app ids:
 * UUIDs match in any case and are stored lower-case, so configured ids are lower-cased once here.
 * Lists become sets once, when the filter is built.
 */
import type { EnginePerformanceMonitorConfig } from "../config/index.ts";

/** The members of a parsed performance event the filter reads. */
export interface PerformanceSubject {
  readonly app_id: string;
  readonly app_name: string;
  readonly object_type: string;
  readonly object_id: string;
  readonly method: string;
}

/** True when the event is kept, false when the monitor rejects it. */
export type PerformanceFilter = (event: PerformanceSubject) => boolean;

type FilterConfig = EnginePerformanceMonitorConfig["monitorFilter"];
type AppRef = FilterConfig["allApps"]["appExclude"][number];
type Selection = (value: string) => boolean;

/** `all: true` accepts everything not excluded; `all: false` only what is included. */
function selection(all: boolean, exclude: readonly string[], include: readonly string[]): Selection {
  if (all) {
    if (exclude.length === 0) return () => true;
    const excluded = new Set(exclude);
    return (value) => !excluded.has(value);
  }
  const included = new Set(include);
  return (value) => included.has(value);
}

/** An item matches when every property it has matches; an empty item matches any app. */
function appMatcher(refs: readonly AppRef[]): (event: PerformanceSubject) => boolean {
  const compiled = refs.map((ref) => ({ appId: ref.appId?.toLowerCase(), appName: ref.appName }));
  return (event) =>
    compiled.some(
      (ref) =>
        (ref.appId === undefined || ref.appId === event.app_id) &&
        (ref.appName === undefined || ref.appName === event.app_name),
    );
}

export function createPerformanceFilter(config: FilterConfig): PerformanceFilter {
  const specific = config.appSpecific.enable
    ? config.appSpecific.app.map((app) => ({
        matchesApp: appMatcher(app.include),
        objectType: selection(
          app.objectType.allObjectTypes,
          app.objectType.allObjectTypesExclude,
          app.objectType.someObjectTypesInclude,
        ),
        objectId: selection(
          app.appObject.allAppObjects,
          app.appObject.allAppObjectsExclude,
          app.appObject.someAppObjectsInclude,
        ),
        method: selection(app.method.allMethods, app.method.allMethodsExclude, app.method.someMethodsInclude),
      }))
    : [];
  const all = config.allApps;
  const allApps = all.enable
    ? {
        excludesApp: appMatcher(all.appExclude),
        objectType: selection(
          all.objectType.allObjectTypes,
          all.objectType.allObjectTypesExclude,
          all.objectType.someObjectTypesInclude,
        ),
        method: selection(all.method.allMethods, all.method.allMethodsExclude, all.method.someMethodsInclude),
      }
    : undefined;

  return function isMonitored(event) {
    for (const app of specific) {
      if (
        app.matchesApp(event) &&
        app.objectType(event.object_type) &&
        app.objectId(event.object_id) &&
        app.method(event.method)
      ) {
        return true;
      }
    }
    if (allApps === undefined || allApps.excludesApp(event)) return false;
    return allApps.objectType(event.object_type) && allApps.method(event.method);
  };
}
