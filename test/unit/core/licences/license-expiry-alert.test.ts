import { describe, expect, it } from "vitest";
import {
  createLicenceExpiryAlerts,
  type LicenceExpiryAlert,
} from "../../../../core/licences/license-expiry-alert.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

const ALERT: LicenceExpiryAlert = {
  kind: "expiring",
  expiryDate: "2027-01-31",
  daysUntilExpiry: 10,
  alertDaysBefore: 30,
  text: "Qlik Sense server license is about to expire in 10 days, on 2027-01-31",
  at: "2027-01-21T00:00:00.000Z",
};

describe("createLicenceExpiryAlerts", () => {
  it("hands each alert to every subscriber until it unsubscribes", async () => {
    const alerts = createLicenceExpiryAlerts(recordingLogger());
    const first: LicenceExpiryAlert[] = [];
    const second: LicenceExpiryAlert[] = [];
    const stopFirst = alerts.subscribe((alert) => void first.push(alert));
    alerts.subscribe(async (alert) => void second.push(alert));

    await alerts.emit(ALERT);
    stopFirst();
    await alerts.emit({ ...ALERT, daysUntilExpiry: 9 });

    expect(first).toEqual([ALERT]);
    expect(second.map((alert) => alert.daysUntilExpiry)).toEqual([10, 9]);
  });

  it("logs a subscriber that throws or rejects, and still reaches the others", async () => {
    const logger = recordingLogger();
    const alerts = createLicenceExpiryAlerts(logger);
    const reached: string[] = [];
    alerts.subscribe(() => {
      throw new Error("smtp down");
    });
    alerts.subscribe(async () => Promise.reject(new Error("teams down")));
    alerts.subscribe((alert) => void reached.push(alert.kind));

    await alerts.emit(ALERT);

    expect(reached).toEqual(["expiring"]);
    expect(logger.at("error").map((entry) => entry.fields?.error)).toEqual([
      expect.stringContaining("smtp down"),
      expect.stringContaining("teams down"),
    ]);
  });

  it("hands every run's status to the status subscribers only, and logs one that fails", async () => {
    const logger = recordingLogger();
    const alerts = createLicenceExpiryAlerts(logger);
    const statuses: unknown[] = [];
    const expiries: unknown[] = [];
    alerts.subscribe((alert) => void expiries.push(alert));
    alerts.subscribeStatus(() => {
      throw new Error("status hook down");
    });
    alerts.subscribeStatus((status) => void statuses.push(status));
    const status = { expired: false, expiryDate: "2027-01-31", daysUntilExpiry: 90, at: ALERT.at };

    await alerts.emitStatus(status);

    expect(statuses).toEqual([status]);
    expect(expiries).toEqual([]);
    expect(logger.at("error").map((entry) => entry.message)).toEqual(["a licence status destination failed"]);
  });
});
