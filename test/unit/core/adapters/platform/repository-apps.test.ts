import { describe, expect, it } from "vitest";
import { readRepositoryApps } from "../../../../../core/adapters/platform/repository-apps.ts";
import { PlatformResponseError } from "../../../../../core/platform/errors.ts";

const CONTEXT = { what: "GET /qrs/app", status: 200 };
const SALES = { id: "1f4b3b8e-6c62-4d6e-9a1c-0e5e7f5e2a01", name: "Sales dashboard" };

describe("readRepositoryApps", () => {
  it("keeps id and name of every app and drops the other members", () => {
    // Prepare
    const body = [
      { ...SALES, appId: "", published: true, stream: { id: "s", name: "Everyone" }, privileges: null },
      { id: "2A7C9D10-8B3E-4F21-A0D4-5C6B7E8F9A02", name: "" },
    ];

    // Act
    const apps = readRepositoryApps(body, CONTEXT);

    // Assess
    expect(apps).toEqual([SALES, { id: "2A7C9D10-8B3E-4F21-A0D4-5C6B7E8F9A02", name: "" }]);
  });

  it("reads an empty list as no apps", () => {
    expect(readRepositoryApps([], CONTEXT)).toEqual([]);
  });

  it.each([
    ["an empty body", undefined, /empty body/],
    ["an object", { ...SALES }, /not a list/],
    ["a list with a string entry", [SALES, "Sales"], /entry 1 is not an object/],
    ["a list with a null entry", [null], /entry 0 is not an object/],
    ["an entry without id", [SALES, { name: "No id" }], /entry 1 has no string id/],
    ["an entry with an empty id", [{ id: "", name: "Empty id" }], /entry 0 has no string id/],
    ["an entry with a numeric id", [{ id: 42, name: "Number" }], /entry 0 has no string id/],
    ["an entry without name", [{ id: SALES.id }], /entry 0 \(1f4b3b8e-.*\) has no string name/],
  ])("rejects %s as a whole with PlatformResponseError", (_case, body, reason) => {
    // Act
    const read = () => readRepositoryApps(body, CONTEXT);

    // Assess
    expect(read).toThrow(PlatformResponseError);
    expect(read).toThrow(reason);
    expect(read).toThrow(/^repository answered GET \/qrs\/app with a malformed app list: /);
  });
});
