import { describe, expect, it } from "vitest";
import { envRef, parseOk, problemsOf } from "./helpers.ts";

describe("environment variable references", () => {
  it("replaces a whole-value reference", () => {
    // Act
    const config = parseOk(
      { restServer: { apiToken: envRef("REST_TOKEN") } },
      { REST_TOKEN: "s3cr3t-value" },
    );

    // Assess
    expect(config.restServer.apiToken).toBe("s3cr3t-value");
  });

  it("replaces references embedded in a longer value, several per value", () => {
    // Act
    const config = parseOk(
      { heartbeat: { enable: true, remoteURL: `https://${envRef("MON_HOST")}/ping/${envRef("MON_ID")}` } },
      { MON_HOST: "monitor.example.com", MON_ID: "abc" },
    );

    // Assess
    expect(config.heartbeat.remoteURL).toBe("https://monitor.example.com/ping/abc");
  });

  it("replaces references inside lists and list items", () => {
    // Act
    const config = parseOk(
      {
        obsPlatform: { enable: true, event: { header: [{ name: "X-Key", value: envRef("HDR") }] } },
        thirdPartyToolsCredentials: {
          obsPlatform: [{ accountName: "a", insertApiKey: envRef("OBS_KEY"), accountId: 1 }],
        },
      },
      { HDR: "header-secret", OBS_KEY: "insert-key" },
    );

    // Assess
    expect(config.obsPlatform.event.header).toEqual([{ name: "X-Key", value: "header-secret" }]);
    expect(config.thirdPartyToolsCredentials.obsPlatform[0]?.insertApiKey).toBe("insert-key");
  });

  it("reports a missing variable at its path without printing any value", () => {
    // Prepare
    const env = { OTHER_SECRET: "do-not-print-me" };

    // Act
    const problems = problemsOf(
      {
        restServer: { apiToken: envRef("API_TOKEN") },
        timeseriesdbConfig: {
          enable: true,
          version: 2,
          v2Config: {
            org: "o",
            bucket: "b",
            token: `Token ${envRef("OTHER_SECRET")}${envRef("INFLUX_TOKEN")}`,
          },
        },
      },
      env,
    );

    // Assess
    expect(problems).toEqual([
      "Service.restServer.apiToken: environment variable API_TOKEN is not set",
      "Service.timeseriesdbConfig.v2Config.token: environment variable INFLUX_TOKEN is not set",
    ]);
    expect(problems.join("\n")).not.toContain("do-not-print-me");
  });

  it("treats a required setting whose variable is empty as missing", () => {
    // Act
    const problems = problemsOf(
      {
        timeseriesdbConfig: { enable: true, version: 3, v3Config: { database: "d", token: envRef("EMPTY") } },
      },
      { EMPTY: "" },
    );

    // Assess
    expect(problems).toEqual(["Service.timeseriesdbConfig.v3Config.token: required"]);
  });

  it("does not substitute (nor require) variables in disabled sections", () => {
    // Act
    const problems = problemsOf({
      mqttConfig: { enable: false, brokerHost: envRef("MISSING_HOST") },
      timeseriesdbConfig: { enable: false, v3Config: { token: envRef("MISSING_TOKEN") } },
    });

    // Assess
    expect(problems).toEqual([]);
  });

  it("uses process.env when no environment is given", async () => {
    // Prepare
    const { parseConfig } = await import("../../../../core/config/index.ts");
    process.env.STEWARD_TEST_TOKEN = "from-process-env";

    // Act
    const result = parseConfig({ Service: { restServer: { apiToken: envRef("STEWARD_TEST_TOKEN") } } });
    delete process.env.STEWARD_TEST_TOKEN;

    // Assess
    expect(result.ok && result.config.restServer.apiToken).toBe("from-process-env");
  });
});
