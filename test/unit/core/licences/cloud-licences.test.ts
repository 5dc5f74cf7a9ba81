import { describe, expect, it } from "vitest";
import { readCloudLicences, validUntil } from "../../../../core/licences/cloud-licences.ts";
import { accessLicencePoints, serverLicencePoint } from "../../../../core/licences/license-points.ts";
import { encodePoints } from "../../../../core/shared/line-protocol.ts";

const AT = Date.parse("2027-12-01T06:00:00Z");
const NS = `${AT}000000`;

/** Qlik's example overview: three allotments, the time-based one with an overage. */
const OVERVIEW = {
  status: "Ok",
  valid: "2026-01-01/2027-12-31",
  allotments: [
    { name: "professional", units: 200, unitsUsed: 15, usageClass: "assigned" },
    { name: "analyzer", units: 500, unitsUsed: 120, usageClass: "assigned" },
    { name: "analyzer_time", units: 300, overage: 100, unitsUsed: 242, usageClass: "time" },
  ],
};
const STATUS = { status: "Ok", valid: "2026-01-01/2027-12-31", deactivated: false };

describe("a Qlik Cloud tenant's licences", () => {
  it("become one qlik_sense_license point per allotment, tagged with the tenant and its static tags", () => {
    const reading = readCloudLicences(OVERVIEW, STATUS, AT);
    const points = accessLicencePoints(
      reading.allotments,
      { qs_env: "prod", tenant: "not-this" },
      AT,
      "acme-eu",
    );

    expect(encodePoints(points)).toBe(
      [
        `qlik_sense_license,license_type=professional,qs_env=prod,tenant=acme-eu total=200,used=15,available=185 ${NS}`,
        `qlik_sense_license,license_type=analyzer,qs_env=prod,tenant=acme-eu total=500,used=120,available=380 ${NS}`,
        `qlik_sense_license,license_type=analyzer_time,qs_env=prod,tenant=acme-eu total=300,used=242,available=58,overage=100 ${NS}`,
      ].join("\n"),
    );
  });

  it("keeps an unbounded overage as the -1 Qlik gives, and passes over an allotment without units", () => {
    const reading = readCloudLicences(
      {
        allotments: [
          { name: "analyzer_time", units: 300, overage: -1, unitsUsed: 310 },
          { name: "professional", unitsUsed: 3 },
          { units: 5 },
        ],
      },
      undefined,
      AT,
    );

    expect(reading.allotments).toEqual([
      { type: "analyzer_time", counts: { total: 300, used: 310, available: -10, overage: -1 } },
    ]);
  });

  it("reads the validity's end as the expiry, in the site's server licence shape, with the tenant tag", () => {
    const reading = readCloudLicences(OVERVIEW, STATUS, AT);

    expect(reading.licence).toEqual({ expired: false, expiryDate: "2027-12-31", daysUntilExpiry: 30 });
    expect(reading.status).toBe("Ok");
    expect(encodePoints([serverLicencePoint(reading.licence, { qs_env: "prod" }, AT, "acme-eu")])).toBe(
      `qlik_sense_server_license,qs_env=prod,tenant=acme-eu license_expired=false,expiry_date="2027-12-31",days_until_expiry=30 ${NS}`,
    );
  });

  it("says expired when Qlik's status says so, or the last valid day has passed", () => {
    expect(readCloudLicences(OVERVIEW, { ...STATUS, status: "Expired" }, AT).licence.expired).toBe(true);
    const later = Date.parse("2028-01-02T00:00:00Z");
    expect(readCloudLicences(OVERVIEW, STATUS, later).licence).toEqual({
      expired: true,
      expiryDate: "2027-12-31",
      daysUntilExpiry: -2,
    });
  });

  it("takes the overview's validity when the status gives none, and no date from an open interval", () => {
    expect(readCloudLicences(OVERVIEW, {}, AT).licence.expiryDate).toBe("2027-12-31");
    expect(validUntil("2026-01-01/")).toBeUndefined();
    expect(validUntil("2026-01-01")).toBeUndefined();
    expect(validUntil("2026-01-01/2027-02-30")).toBeUndefined();
  });

  it("refuses an answer that is no overview", () => {
    expect(() => readCloudLicences({ errors: [{ title: "License not found" }] }, STATUS, AT)).toThrow(
      "the licence overview is not a JSON object with allotments",
    );
  });
});
