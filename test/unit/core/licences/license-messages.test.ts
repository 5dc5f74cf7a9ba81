import { describe, expect, it } from "vitest";
import { expiryAlertText, serverLicenceMessages } from "../../../../core/licences/license-messages.ts";
import type { ServerLicenceReading } from "../../../../core/licences/server-licence.ts";

const TOPICS = {
  qlikSenseServerLicenseTopic: "qliksense/qliksense_server_license",
  qlikSenseServerLicenseExpireTopic: "qliksense/qliksense_server_license_expire",
};

const reading = (daysUntilExpiry: number | undefined, expired = false): ServerLicenceReading => ({
  expired,
  expiryDate: daysUntilExpiry === undefined ? undefined : "2027-01-31",
  daysUntilExpiry,
});

describe("expiryAlertText", () => {
  it("alerts on the boundary day and inside the window, not the day before the window opens", () => {
    expect(expiryAlertText(reading(31), 30)).toBeUndefined();
    expect(expiryAlertText(reading(30), 30)).toBe(
      "Qlik Sense server license is about to expire in 30 days, on 2027-01-31",
    );
    expect(expiryAlertText(reading(29), 30)).toBe(
      "Qlik Sense server license is about to expire in 29 days, on 2027-01-31",
    );
    expect(expiryAlertText(reading(0), 30)).toBe(
      "Qlik Sense server license is about to expire in 0 days, on 2027-01-31",
    );
  });

  it("says expired after the expiry day, or when the repository says so", () => {
    expect(expiryAlertText(reading(-1), 30)).toBe("Qlik Sense server license expired on 2027-01-31");
    expect(expiryAlertText(reading(200, true), 30)).toBe("Qlik Sense server license expired on 2027-01-31");
    expect(expiryAlertText(reading(undefined, true), 30)).toBe(
      "Qlik Sense server license expired on an unknown date",
    );
  });

  it("says nothing of a licence without a date that has not expired", () => {
    expect(expiryAlertText(reading(undefined), 30)).toBeUndefined();
  });
});

describe("serverLicenceMessages", () => {
  it("sends the state on every run, as JSON with signed days", () => {
    expect(serverLicenceMessages(reading(45), TOPICS, 30)).toEqual([
      {
        topic: "qliksense/qliksense_server_license",
        payload: JSON.stringify({ licenseExpired: false, expiryDateStr: "2027-01-31", daysUntilExpiry: 45 }),
      },
    ]);
  });

  it("adds the alert text on the expiry topic inside the window", () => {
    const messages = serverLicenceMessages(reading(-2), TOPICS, 30);

    expect(messages).toHaveLength(2);
    expect(JSON.parse(messages[0]?.payload as string)).toEqual({
      licenseExpired: false,
      expiryDateStr: "2027-01-31",
      daysUntilExpiry: -2,
    });
    expect(messages[1]).toEqual({
      topic: "qliksense/qliksense_server_license_expire",
      payload: "Qlik Sense server license expired on 2027-01-31",
    });
  });

  it("gives null, not a made-up value, for a licence without a date", () => {
    expect(JSON.parse(serverLicenceMessages(reading(undefined), TOPICS, 30)[0]?.payload as string)).toEqual({
      licenseExpired: false,
      expiryDateStr: null,
      daysUntilExpiry: null,
    });
  });
});
