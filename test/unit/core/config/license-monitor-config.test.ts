import { describe, expect, it } from "vitest";
import { licenseMonitorDestinations, parseConfig } from "../../../../core/config/index.ts";
import { problemsOf } from "./helpers.ts";

const PLATFORM = { host: "sense1.example.com" };

function config(service: Record<string, unknown>) {
  const parsed = parseConfig({ Service: service });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.config;
}

describe("licenseMonitor settings", () => {
  it("needs platform.host when on, and nothing while off", () => {
    expect(problemsOf({ licenseMonitor: { enable: true } })).toEqual([
      "Service.platform.host: required when licenseMonitor.enable is true",
    ]);
    expect(problemsOf({ licenseMonitor: { enable: true }, platform: PLATFORM })).toEqual([]);
    expect(problemsOf({ licenseMonitor: { enable: false, frequency: "whenever" } })).toEqual([]);
  });

  it("refuses a schedule that is neither later.js text nor cron", () => {
    const problems = problemsOf({
      licenseMonitor: { enable: true, frequency: "whenever" },
      platform: PLATFORM,
    });

    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^Service\.licenseMonitor\.frequency: /);
  });

  it("takes the release flags as ignore, yes or no in any case, and refuses anything else", () => {
    const taken = config({
      licenseMonitor: {
        enable: true,
        licenseRelease: { enable: true, neverRelease: { inactive: "Yes", blocked: " NO " } },
      },
      platform: PLATFORM,
    });

    expect(taken.licenseMonitor.licenseRelease.neverRelease).toMatchObject({
      inactive: "yes",
      blocked: "no",
      removedExternally: "ignore",
    });
    expect(
      problemsOf({
        licenseMonitor: {
          enable: true,
          licenseRelease: { enable: true, neverRelease: { inactive: "maybe" } },
        },
        platform: PLATFORM,
      }),
    ).toEqual(["Service.licenseMonitor.licenseRelease.neverRelease.inactive: must be ignore, yes or no"]);
  });

  it("refuses releaseThresholdDays 0, saying it would release licences in use today, and takes 1", () => {
    const release = (days: number) => ({
      licenseMonitor: {
        enable: true,
        licenseRelease: { enable: true, licenseType: { analyzer: { releaseThresholdDays: days } } },
      },
      platform: PLATFORM,
    });

    expect(problemsOf(release(0))).toEqual([
      "Service.licenseMonitor.licenseRelease.licenseType.analyzer.releaseThresholdDays: must be at least 1: 0 would release every licence of the type, those in use today included",
    ]);
    expect(config(release(1)).licenseMonitor.licenseRelease.licenseType.analyzer.releaseThresholdDays).toBe(
      1,
    );
    expect(problemsOf(release(3651))[0]).toMatch(/releaseThresholdDays: must be between 1 and 3650$/);
  });

  it("releases nothing by default: the release is off, and a dry run once on", () => {
    const defaults = config({ licenseMonitor: { enable: true }, platform: PLATFORM }).licenseMonitor;

    expect(defaults.licenseRelease).toMatchObject({ enable: false, dryRun: true });
    expect(defaults).toMatchObject({ frequency: "every 6 hours", serverLicense: { alertDaysBefore: 30 } });
  });
});

describe("licenseMonitorDestinations", () => {
  const base = { licenseMonitor: { enable: true }, platform: PLATFORM };
  const influx = { enable: true, host: "127.0.0.1", version: 1, v1Config: { dbName: "steward" } };
  const broker = { enable: true, brokerHost: "127.0.0.1" };

  it("writes where the section's switch and the destination's master switch are both on", () => {
    expect(licenseMonitorDestinations(config({ ...base, timeseriesdbConfig: influx }))).toEqual({
      timeseriesdb: true,
      mqtt: false,
    });
    expect(
      licenseMonitorDestinations(
        config({
          ...base,
          licenseMonitor: { enable: true, sendToMQTT: { enable: true } },
          mqttConfig: broker,
        }),
      ),
    ).toEqual({ timeseriesdb: false, mqtt: true });
  });

  it("writes nowhere while the section or a master switch is off", () => {
    expect(
      licenseMonitorDestinations(
        config({
          ...base,
          licenseMonitor: { enable: true, timeseriesdb: { enable: false }, sendToMQTT: { enable: true } },
          timeseriesdbConfig: influx,
        }),
      ),
    ).toEqual({ timeseriesdb: false, mqtt: false });
    expect(
      licenseMonitorDestinations(
        config({
          licenseMonitor: { enable: false, sendToMQTT: { enable: true } },
          timeseriesdbConfig: influx,
          mqttConfig: broker,
        }),
      ),
    ).toEqual({ timeseriesdb: false, mqtt: false });
  });
});
