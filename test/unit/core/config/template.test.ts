import { describe, expect, it } from "vitest";
import {
  checkConfigText,
  defaultConfig,
  documentationOf,
  renderTemplate,
  serviceSchema,
} from "../../../../core/config/index.ts";
import { listLeaves } from "../../../../core/config/schema-walk.ts";
import { lines } from "./helpers.ts";

const leaves = listLeaves(serviceSchema);
const leafName = (path: readonly string[]) => path.join(".").replaceAll(".[]", "[]");

describe("renderTemplate", () => {
  it("passes validation as printed and equals the embedded default config", () => {
    // Act
    const result = checkConfigText(renderTemplate(), "steward.yaml", {});

    // Assess
    expect(result.ok ? [] : lines(result.problems)).toEqual([]);
    expect(result.ok && result.config).toEqual(defaultConfig());
  });

  it("documents every leaf setting of the schema", () => {
    // Act
    const undocumented = leaves
      .filter((leaf) => !documentationOf(leaf.path))
      .map((leaf) => leafName(leaf.path));

    // Assess
    expect(leaves.length).toBeGreaterThan(300);
    expect(undocumented).toEqual([]);
  });

  it("mentions every leaf key with its documentation", () => {
    // Prepare
    const text = renderTemplate();

    // Act
    const missing = leaves.filter((leaf) => {
      const key = leaf.path.filter((s) => s !== "[]").at(-1) ?? "";
      return (
        !new RegExp(`(^|\\s|#)${key}:`, "m").test(text) ||
        !text.includes(documentationOf(leaf.path) ?? "\u0000")
      );
    });

    // Assess
    expect(missing.map((leaf) => leafName(leaf.path))).toEqual([]);
  });

  it("does not give a nested setting the documentation of a top-level namesake", () => {
    expect(documentationOf(["logEvents", "source", "scheduler"])).toBeUndefined();
    expect(documentationOf(["scheduler"])).toBe("Cron schedules that start platform tasks.");
    expect(documentationOf(["logEvents", "sendToObsPlatform", "source", "scheduler", "enable"])).toBe(
      "Send scheduler log events.",
    );
  });

  it("shows the default of each setting", () => {
    // Act
    const text = renderTemplate();

    // Assess
    expect(text).toContain("# Listen port. Default: 8181\n    port: 8181");
    expect(text).toContain("maxPerMinute: 300");
    expect(text).toContain('type: "parquet,json"');
  });

  it("keeps features that need other servers off", () => {
    // Act
    const result = checkConfigText(renderTemplate(), "steward.yaml", {});

    // Assess
    if (!result.ok) expect.fail("template invalid");
    const c = result.config;
    expect([
      c.timeseriesdbConfig.enable,
      c.mqttConfig.enable,
      c.obsPlatform.enable,
      c.userEvents.enable,
      c.appNames.enableAppNameExtract,
      c.userSessions.enableSessionExtract,
      c.heartbeat.enable,
      c.cloud.enable,
      c.serversToMonitor.servers.length > 0,
    ]).toEqual([false, false, false, false, false, false, false, false, false]);
  });
});
