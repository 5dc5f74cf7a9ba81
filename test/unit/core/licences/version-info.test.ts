import { describe, expect, it } from "vitest";
import { readVersionInfo, VersionInfoError } from "../../../../core/licences/version-info.ts";

const SYSTEMINFO = {
  contentHash: "2ac3f7f3",
  senseId: "qliksenseserver:14.212.8",
  version: "14.212.8",
  deploymentType: "QlikSenseServer",
  releaseLabel: "May 2025 Patch 3",
  deprecatedProductVersion: "4.0.X",
  productName: "Qlik Sense Enterprise on Windows",
  copyrightYearRange: "1993-2025",
};

describe("readVersionInfo", () => {
  it("gives every member under its stored name", () => {
    expect(readVersionInfo(SYSTEMINFO)).toEqual({
      content_hash: "2ac3f7f3",
      sense_id: "qliksenseserver:14.212.8",
      version: "14.212.8",
      deployment_type: "QlikSenseServer",
      release_label: "May 2025 Patch 3",
      deprecated_product_version: "4.0.X",
      product_name: "Qlik Sense Enterprise on Windows",
      copyright_year_range: "1993-2025",
    });
  });

  it("leaves out members that are missing or not strings", () => {
    expect(readVersionInfo({ version: "14.212.8", releaseLabel: 3, productName: null })).toEqual({
      version: "14.212.8",
    });
  });

  it.each([[null], [[SYSTEMINFO]], [{ ...SYSTEMINFO, version: 14 }], [{}]])("refuses %j", (body) => {
    expect(() => readVersionInfo(body)).toThrow(VersionInfoError);
  });
});
