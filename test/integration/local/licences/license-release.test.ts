/**
 * Releasing unused access licences against the simulated repository (which records every call)
 * and Debian's influxd: a dry run sends no DELETE and writes no release point; a real run
 * releases exactly the licences no never-release rule protects (by user, tag, custom property,
 * directory, inactive / blocked / removed-externally flags; quarantined and recently used licences
 * are never candidates), one DELETE each, each written to `qlik_sense_license_release` and counted.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../../../fixtures/platform/test-platform.ts";
import { type Influxd, skipWithoutInfluxd, startInfluxd } from "../../../helpers/influxd.ts";
import { sampleValue } from "../../../helpers/prometheus-text.ts";
import { fieldTypes, licenceConfig, rows, runOnce, tagKeys } from "./license-monitor-fixture.ts";

const skip = skipWithoutInfluxd();

let influxd: Influxd;
let platform: TestPlatform;

beforeAll(async () => {
  if (skip) return;
  [influxd, platform] = await Promise.all([startInfluxd(), startTestPlatform()]);
}, 60_000);

beforeEach(() => {
  if (!skip) platform.reset();
});

afterAll(async () => {
  await Promise.all([influxd?.close(), platform?.stop()]);
});

/** One rule per kind, each protecting one of the simulated users. */
const EVERY_RULE = {
  user: [{ userDir: "internal", userId: "SA_REPOSITORY" }],
  tag: ["License do not release"],
  customProperty: [{ name: "LicenseManage", value: "do-not-release" }],
  userDirectory: ["ADMIN"],
  inactive: "Yes",
  blocked: "yes",
  removedExternally: "yes",
};

function release(database: string, dryRun: boolean, neverRelease: Record<string, unknown>) {
  return runOnce(
    licenceConfig(
      { platform, influxd, database },
      {
        accessLicenses: { enable: false },
        serverLicense: { enable: false },
        version: { enable: false },
        licenseRelease: { enable: true, dryRun, neverRelease },
      },
    ),
  );
}

const deletes = () =>
  platform.repository.calls.filter((call) => call.method === "DELETE").map((call) => call.path);

describe.skipIf(skip)("licence release", () => {
  it("in a dry run sends no DELETE, writes no release point, and says what it would release", async () => {
    const run = await release("release_dry", true, EVERY_RULE);

    expect(deletes()).toEqual([]);
    expect(platform.repository.licenses.released).toEqual([]);
    expect(await rows(influxd, "release_dry", "qlik_sense_license_release")).toEqual([]);
    const wouldRelease = run.logger
      .at("info")
      .filter((entry) => entry.message === "dry run: this access licence would be released")
      .map((entry) => entry.fields?.user);
    expect(wouldRelease).toEqual(["LAB\\alice", "LAB\\judy"]);
    expect(
      sampleValue(run.metrics, "steward_license_releases_total", {
        license_type: "professional",
        outcome: "would_release",
      }),
    ).toBe(1);
  });

  it("releases exactly the licences no rule protects, one DELETE each, and writes each release", async () => {
    const run = await release("release_real", false, EVERY_RULE);

    expect(deletes()).toEqual([
      "/qrs/license/professionalaccesstype/pro-alice",
      "/qrs/license/analyzeraccesstype/ana-judy",
    ]);
    expect(platform.repository.licenses.released).toEqual(["pro-alice", "ana-judy"]);
    const kept = Object.fromEntries(
      (run.status.release?.outcomes ?? [])
        .filter((outcome) => outcome.outcome === "kept")
        .map((outcome) => [outcome.user, outcome.reason]),
    );
    expect(kept).toEqual({
      "INTERNAL\\sa_repository": "listed in neverRelease.user",
      "LAB\\bob": 'has the tag "License do not release"',
      "LAB\\carol": "has the custom property LicenseManage=do-not-release",
      "ADMIN\\dave": "user directory ADMIN is in neverRelease.userDirectory",
      "LAB\\erin": "inactive is yes",
      "LAB\\frank": "blocked is yes",
      "LAB\\grace": "removed externally is yes",
    });
    expect(await tagKeys(influxd, "release_real", "qlik_sense_license_release")).toEqual([
      "license_type",
      "qs_env",
      "user",
    ]);
    expect(await fieldTypes(influxd, "release_real", "qlik_sense_license_release")).toEqual({
      days_since_last_use: "float",
    });
    expect(
      (await rows(influxd, "release_real", "qlik_sense_license_release")).map((row) => [
        row.license_type,
        row.user,
        row.days_since_last_use,
      ]),
    ).toEqual([
      ["analyzer", "LAB\\judy", 45],
      ["professional", "LAB\\alice", 90],
    ]);
    expect(
      sampleValue(run.metrics, "steward_license_releases_total", {
        license_type: "professional",
        outcome: "released",
      }),
    ).toBe(1);
    expect(
      sampleValue(run.metrics, "steward_license_releases_total", {
        license_type: "professional",
        outcome: "kept",
      }),
    ).toBe(7);
  });

  it("with a flag rule of no, keeps every user without the flag and releases the one with it", async () => {
    await release("release_flag_no", false, { inactive: "no" });

    expect(deletes()).toEqual(["/qrs/license/professionalaccesstype/pro-erin"]);
  });

  it("says which licence was not released and why, and releases the others, when a DELETE is refused", async () => {
    platform.repository.licenses.refusedReleases.add("pro-alice");

    const run = await release("release_refused", false, EVERY_RULE);

    expect(deletes()).toEqual([
      "/qrs/license/professionalaccesstype/pro-alice",
      "/qrs/license/analyzeraccesstype/ana-judy",
    ]);
    expect(platform.repository.licenses.released).toEqual(["ana-judy"]);
    const notReleased = run.logger
      .at("warn")
      .find((entry) => entry.message === "access licence not released");
    expect(notReleased?.fields).toMatchObject({ licenseType: "professional", user: "LAB\\alice" });
    expect(String(notReleased?.fields?.error)).toContain("HTTP 409");
    expect(
      run.logger.at("info").find((entry) => entry.message === "licence release done")?.fields,
    ).toMatchObject({
      released: 1,
      failed: 1,
      kept: 7,
    });
    expect(
      (await rows(influxd, "release_refused", "qlik_sense_license_release")).map((row) => row.user),
    ).toEqual(["LAB\\judy"]);
  });
});
