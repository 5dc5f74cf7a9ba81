/**
 * The server licence's expiry warning at the boundary of `serverLicense.alertDaysBefore`: with
 * the simulated licence expiring exactly that many days from today the monitor warns (once in
 * the run) and hands one alert to the subscribed destinations; one day fewer warns too; one day
 * more says nothing; after the expiry day the alert says expired, with negative days.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expiryDateIn } from "../../../../local/simulated-platform/license-simulation.ts";
import { startTestPlatform, type TestPlatform } from "../../../fixtures/platform/test-platform.ts";
import { type Influxd, skipWithoutInfluxd, startInfluxd } from "../../../helpers/influxd.ts";
import { licenceConfig, rows, runOnce } from "./license-monitor-fixture.ts";

const skip = skipWithoutInfluxd();
const DATABASE = "licence_expiry";
const ALERT_DAYS = 45;

let influxd: Influxd;
let platform: TestPlatform;

beforeAll(async () => {
  if (skip) return;
  [influxd, platform] = await Promise.all([startInfluxd(), startTestPlatform()]);
}, 60_000);

afterAll(async () => {
  await Promise.all([influxd?.close(), platform?.stop()]);
});

async function runExpiringIn(days: number) {
  platform.repository.licenses.expiryDate = expiryDateIn(days, Date.now());
  const run = await runOnce(
    licenceConfig(
      { platform, influxd, database: DATABASE },
      {
        serverLicense: { alertDaysBefore: ALERT_DAYS },
        accessLicenses: { enable: false },
        version: { enable: false },
      },
    ),
  );
  const warnings = run.logger.at("warn").filter((entry) => /server license/.test(entry.message));
  return { run, warnings };
}

describe.skipIf(skip)("the server licence's expiry warning", () => {
  it("warns once, and alerts once, when the licence expires exactly alertDaysBefore days from today", async () => {
    const { run, warnings } = await runExpiringIn(ALERT_DAYS);

    expect(warnings.map((entry) => entry.message)).toEqual([
      `Qlik Sense server license is about to expire in ${ALERT_DAYS} days, on ${expiryDateIn(ALERT_DAYS, Date.now())}`,
    ]);
    expect(warnings[0]?.fields).toMatchObject({ daysUntilExpiry: ALERT_DAYS, alertDaysBefore: ALERT_DAYS });
    expect(run.alerts).toMatchObject([
      { state: "expiring", daysUntilExpiry: ALERT_DAYS, alertDaysBefore: ALERT_DAYS },
    ]);
    expect(run.status.serverLicence?.alert).toBe(warnings[0]?.message);
  });

  it("warns one day inside the window", async () => {
    const { run, warnings } = await runExpiringIn(ALERT_DAYS - 1);

    expect(warnings).toHaveLength(1);
    expect(run.alerts).toMatchObject([{ state: "expiring", daysUntilExpiry: ALERT_DAYS - 1 }]);
  });

  it("says nothing one day before the window opens", async () => {
    const { run, warnings } = await runExpiringIn(ALERT_DAYS + 1);

    expect(warnings).toEqual([]);
    expect(run.alerts).toEqual([]);
    expect(run.status.serverLicence).toMatchObject({ daysUntilExpiry: ALERT_DAYS + 1, alert: undefined });
  });

  it("says expired, with negative days in the database, once the expiry day has passed", async () => {
    const { run, warnings } = await runExpiringIn(-3);

    expect(warnings.map((entry) => entry.message)).toEqual([
      `Qlik Sense server license expired on ${expiryDateIn(-3, Date.now())}`,
    ]);
    expect(run.alerts).toMatchObject([{ state: "expired", daysUntilExpiry: -3 }]);
    const stored = await rows(influxd, DATABASE, "qlik_sense_server_license");
    expect(stored.at(-1)).toMatchObject({ license_expired: true, days_until_expiry: -3 });
  });
});
