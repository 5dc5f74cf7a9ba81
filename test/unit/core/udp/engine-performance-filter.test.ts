import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { logEventsSchema } from "../../../../core/config/schema/log-events.ts";
import {
  createPerformanceFilter,
  type PerformanceSubject,
} from "../../../../core/udp/engine-performance-filter.ts";
import { logEventsConfig, PERF_APP_ID } from "./udp-fixtures.ts";

const filterOf = (monitorFilter: unknown) =>
  createPerformanceFilter(
    logEventsConfig({ enginePerformanceMonitor: { monitorFilter } }).enginePerformanceMonitor.monitorFilter,
  );

const subject = (overrides: Partial<PerformanceSubject> = {}): PerformanceSubject => ({
  app_id: PERF_APP_ID,
  app_name: "Sales",
  object_type: "barchart",
  object_id: "obj-1",
  method: "GenericObject::GetLayout",
  ...overrides,
});

const appEntry = (overrides: Record<string, unknown> = {}) => ({
  include: [{ appName: "Sales" }],
  objectType: { allObjectTypes: true },
  appObject: { allAppObjects: true },
  method: { allMethods: true },
  ...overrides,
});

describe("createPerformanceFilter", () => {
  it("rejects everything when neither filter is enabled", () => {
    expect(filterOf({})(subject())).toBe(false);
  });

  it("accepts an app named by an app-specific include item", () => {
    const filter = filterOf({ appSpecific: { enable: true, app: [appEntry()] } });

    expect(filter(subject())).toBe(true);
    expect(filter(subject({ app_name: "Finance" }))).toBe(false);
  });

  it("requires every property of an include item to match", () => {
    const filter = filterOf({
      appSpecific: { enable: true, app: [appEntry({ include: [{ appId: PERF_APP_ID, appName: "Sales" }] })] },
    });

    expect(filter(subject())).toBe(true);
    expect(filter(subject({ app_name: "Other" }))).toBe(false);
  });

  it("compares configured app ids case-insensitively (event ids are lower case)", () => {
    const filter = filterOf({
      appSpecific: { enable: true, app: [appEntry({ include: [{ appId: PERF_APP_ID.toUpperCase() }] })] },
    });

    expect(filter(subject())).toBe(true);
  });

  it("lets an empty include item match any app", () => {
    const filter = filterOf({ appSpecific: { enable: true, app: [appEntry({ include: [{}] })] } });

    expect(filter(subject({ app_name: "", app_id: "" }))).toBe(true);
  });

  it("applies object type include and exclude lists", () => {
    const excluding = filterOf({
      appSpecific: {
        enable: true,
        app: [appEntry({ objectType: { allObjectTypes: true, allObjectTypesExclude: ["table"] } })],
      },
    });
    const including = filterOf({
      appSpecific: {
        enable: true,
        app: [appEntry({ objectType: { allObjectTypes: false, someObjectTypesInclude: ["table"] } })],
      },
    });

    expect([excluding(subject()), excluding(subject({ object_type: "table" }))]).toEqual([true, false]);
    expect([including(subject()), including(subject({ object_type: "table" }))]).toEqual([false, true]);
  });

  it("applies app object lists given as strings or as {objectId} items", () => {
    const config = logEventsConfig({
      enginePerformanceMonitor: {
        monitorFilter: {
          appSpecific: {
            enable: true,
            app: [
              appEntry({
                include: [{ appName: "Sales" }],
                appObject: { allAppObjects: true, allAppObjectsExclude: [{ objectId: "obj-1" }, "obj-2"] },
              }),
              appEntry({
                include: [{ appName: "Finance" }],
                appObject: { allAppObjects: false, someAppObjectsInclude: ["obj-3", { objectId: "obj-4" }] },
              }),
            ],
          },
        },
      },
    });
    const filter = createPerformanceFilter(config.enginePerformanceMonitor.monitorFilter);

    expect(["obj-1", "obj-2", "obj-9"].map((id) => filter(subject({ object_id: id })))).toEqual([
      false,
      false,
      true,
    ]);
    expect(
      ["obj-3", "obj-4", "obj-9"].map((id) => filter(subject({ app_name: "Finance", object_id: id }))),
    ).toEqual([true, true, false]);
  });

  it("applies method lists", () => {
    const filter = filterOf({
      appSpecific: {
        enable: true,
        app: [appEntry({ method: { allMethods: false, someMethodsInclude: ["Doc::GetAppLayout"] } })],
      },
    });

    expect(filter(subject({ method: "Doc::GetAppLayout" }))).toBe(true);
    expect(filter(subject())).toBe(false);
  });

  it("tries the next app entry when an entry's app matches but its selections do not", () => {
    const filter = filterOf({
      appSpecific: {
        enable: true,
        app: [
          appEntry({ objectType: { allObjectTypes: false, someObjectTypesInclude: ["table"] } }),
          appEntry({ method: { allMethods: true } }),
        ],
      },
    });

    expect(filter(subject())).toBe(true);
  });

  it("falls back to the all-apps filter, honouring app exclusions, object types and methods", () => {
    const filter = filterOf({
      appSpecific: { enable: true, app: [appEntry({ include: [{ appName: "Nothing" }] })] },
      allApps: {
        enable: true,
        appExclude: [{ appName: "Secret" }],
        objectType: { allObjectTypes: true, allObjectTypesExclude: ["table"] },
        method: { allMethods: true, allMethodsExclude: ["Global::OpenApp"] },
      },
    });

    expect(filter(subject())).toBe(true);
    expect(filter(subject({ app_name: "Secret" }))).toBe(false);
    expect(filter(subject({ object_type: "table" }))).toBe(false);
    expect(filter(subject({ method: "Global::OpenApp" }))).toBe(false);
  });

  it("accepts through the app-specific filter what the all-apps filter excludes", () => {
    const filter = filterOf({
      appSpecific: { enable: true, app: [appEntry()] },
      allApps: { enable: true, appExclude: [{ appName: "Sales" }] },
    });

    expect(filter(subject())).toBe(true);
  });
});

describe("appObject lists in the configuration", () => {
  it("accept both forms and hold the ids as strings", () => {
    const config = logEventsConfig({
      enginePerformanceMonitor: {
        monitorFilter: {
          appSpecific: {
            app: [
              {
                appObject: {
                  allAppObjectsExclude: ["a", { objectId: "b" }],
                  someAppObjectsInclude: [{ objectId: "c" }],
                },
              },
            ],
          },
        },
      },
    });
    const appObject = config.enginePerformanceMonitor.monitorFilter.appSpecific.app[0]?.appObject;

    expect(appObject?.allAppObjectsExclude).toEqual(["a", "b"]);
    expect(appObject?.someAppObjectsInclude).toEqual(["c"]);
  });

  it.each([
    ["an empty id", [""]],
    ["an item without objectId", [{ id: "x" }]],
    ["an item with another key", [{ objectId: "x", extra: 1 }]],
    ["a number", [5]],
  ])("refuse %s", (_case, list) => {
    const result = v.safeParse(logEventsSchema, {
      enginePerformanceMonitor: {
        monitorFilter: { appSpecific: { app: [{ appObject: { allAppObjectsExclude: list } }] } },
      },
    });

    expect(result.success).toBe(false);
  });
});
