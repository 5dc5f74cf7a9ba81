import { describe, expect, it } from "vitest";
import {
  daysUntilExpiry,
  readServerLicence,
  ServerLicenceError,
  validToDate,
} from "../../../../core/licences/server-licence.ts";

const at = (iso: string) => Date.parse(iso);

/** keyDetails as the repository gives it: one `Name: value` line per detail. */
const details = (validTo: string, newline = "\n") =>
  [
    "Serial: 9999000000001234",
    "Control: 12345",
    "Valid From: 2019-11-14",
    `Valid To: ${validTo}`,
    "LEF Token: x",
  ].join(newline);

describe("validToDate", () => {
  it.each([
    ["2027-01-31", "2027-01-31"],
    ["2027-1-5", "2027-01-05"],
    ["2027/01/31", "2027-01-31"],
    ["2027-01-31T12:00:00Z", "2027-01-31"],
    ["2027-01-31 12:30", "2027-01-31"],
  ])("reads %s as %s, a time after the date included", (written, expected) => {
    expect(validToDate(details(written))).toBe(expected);
    expect(validToDate(details(written, "\r\n"))).toBe(expected);
  });

  it.each([[""], ["never"], ["2027-02-30"], ["31.01.2027"], ["2027-13-01"]])(
    "gives no date for %j rather than a wrong one",
    (written) => {
      expect(validToDate(details(written))).toBeUndefined();
    },
  );

  it("gives no date when keyDetails has no Valid To line", () => {
    expect(validToDate("Serial: 1\nValid From: 2019-11-14")).toBeUndefined();
  });
});

describe("daysUntilExpiry", () => {
  it("counts calendar days (UTC), 0 on the expiry day and negative after it", () => {
    expect(daysUntilExpiry("2027-01-31", at("2027-01-01T00:00:00Z"))).toBe(30);
    expect(daysUntilExpiry("2027-01-31", at("2027-01-30T23:59:59Z"))).toBe(1);
    expect(daysUntilExpiry("2027-01-31", at("2027-01-31T00:00:00Z"))).toBe(0);
    expect(daysUntilExpiry("2027-01-31", at("2027-01-31T23:59:59Z"))).toBe(0);
    expect(daysUntilExpiry("2027-01-31", at("2027-02-01T00:00:00Z"))).toBe(-1);
    expect(daysUntilExpiry("2027-01-31", at("2027-02-10T08:00:00Z"))).toBe(-10);
  });

  it("keeps counting down after expiry instead of growing again", () => {
    const days = ["2027-01-29", "2027-01-30", "2027-01-31", "2027-02-01", "2027-02-02"].map((day) =>
      daysUntilExpiry("2027-01-31", at(`${day}T12:00:00Z`)),
    );

    expect(days).toEqual([2, 1, 0, -1, -2]);
  });
});

describe("readServerLicence", () => {
  it("reads the expired flag, the expiry date and the signed days", () => {
    const reading = readServerLicence(
      { isExpired: true, keyDetails: details("2027-01-31T00:00:00") },
      at("2027-02-03T10:00:00Z"),
    );

    expect(reading).toEqual({ expired: true, expiryDate: "2027-01-31", daysUntilExpiry: -3 });
  });

  it("keeps the expired flag when keyDetails has no readable date", () => {
    expect(readServerLicence({ isExpired: false, keyDetails: "Serial: 1" }, 0)).toEqual({
      expired: false,
      expiryDate: undefined,
      daysUntilExpiry: undefined,
    });
    expect(readServerLicence({}, 0)).toEqual({
      expired: false,
      expiryDate: undefined,
      daysUntilExpiry: undefined,
    });
  });

  it.each([[null], ["text"], [[{ isExpired: true }]], [42]])("refuses %j as a licence answer", (body) => {
    expect(() => readServerLicence(body, 0)).toThrow(ServerLicenceError);
  });
});
