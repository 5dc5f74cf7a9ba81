import { describe, expect, it } from "vitest";
import {
  accessLicencePoints,
  releasePoint,
  serverLicencePoint,
  versionPoint,
} from "../../../../core/licences/license-points.ts";
import { encodePoints } from "../../../../core/shared/line-protocol.ts";

const AT = Date.parse("2027-01-01T00:00:00Z");
const NS = `${AT}000000`;
const STATIC = { qs_env: "lab" };

describe("licence points", () => {
  it("writes one qlik_sense_license point per type, every count a float, tagged with the type and qs_env", () => {
    const points = accessLicencePoints(
      [
        { type: "professional", counts: { allocated: 30, available: 20 } },
        { type: "analyzer_capacity", counts: { used_minutes: 12 } },
      ],
      STATIC,
      AT,
    );

    expect(encodePoints(points)).toBe(
      [
        `qlik_sense_license,license_type=professional,qs_env=lab allocated=30,available=20 ${NS}`,
        `qlik_sense_license,license_type=analyzer_capacity,qs_env=lab used_minutes=12 ${NS}`,
      ].join("\n"),
    );
  });

  it("writes the server licence with a boolean flag, a string date and float days (negative after expiry)", () => {
    const point = serverLicencePoint(
      { expired: true, expiryDate: "2026-12-29", daysUntilExpiry: -3 },
      STATIC,
      AT,
    );

    expect(encodePoints([point])).toBe(
      `qlik_sense_server_license,qs_env=lab license_expired=true,expiry_date="2026-12-29",days_until_expiry=-3 ${NS}`,
    );
  });

  it("writes the expired flag alone for a licence without a readable date", () => {
    const point = serverLicencePoint(
      { expired: false, expiryDate: undefined, daysUntilExpiry: undefined },
      {},
      AT,
    );

    expect(encodePoints([point])).toBe(`qlik_sense_server_license license_expired=false ${NS}`);
  });

  it("writes every version member as a string", () => {
    const point = versionPoint({ version: "14.212.8", release_label: "May 2025 Patch 3" }, STATIC, AT);

    expect(encodePoints([point])).toBe(
      `qlik_sense_version,qs_env=lab version="14.212.8",release_label="May 2025 Patch 3" ${NS}`,
    );
  });

  it("tags a released licence with its type and user; a static tag never replaces the point's own", () => {
    const point = releasePoint(
      { type: "analyzer", user: "LAB\\anna", daysSinceLastUse: 42 },
      { qs_env: "lab", user: "static" },
      AT,
    );

    expect(point.tags).toEqual({ qs_env: "lab", license_type: "analyzer", user: "LAB\\anna" });
    expect(point.fields).toEqual({ days_since_last_use: { kind: "float", value: 42 } });
  });
});
