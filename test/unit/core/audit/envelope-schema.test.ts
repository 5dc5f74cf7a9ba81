import { describe, expect, it } from "vitest";
import type { AuditEnvelope } from "../../../../core/audit/accepted-event.ts";
import { parseEnvelope } from "../../../../core/audit/envelope-schema.ts";
import { validEnvelope } from "../../../helpers/audit-envelopes.ts";

function violationsOf(body: unknown) {
  const result = parseEnvelope(body);
  return result.ok ? [] : result.violations;
}

describe("parseEnvelope (400 layer)", () => {
  it("accepts a valid envelope and returns an AuditEnvelope without unknown members", () => {
    const result = parseEnvelope(validEnvelope({ extra: 1, source: { kind: "qlik-sense-extension", x: 2 } }));

    expect(result.ok).toBe(true);
    const envelope: AuditEnvelope | undefined = result.ok ? result.envelope : undefined;
    expect(envelope).not.toHaveProperty("extra");
    expect(envelope?.source).toEqual({ kind: "qlik-sense-extension" });
  });

  it.each([
    ["string", "1"],
    ["boolean", true],
    ["fraction", 1.5],
    ["zero", 0],
    ["null", null],
  ])("rejects a %s schemaVersion without coercion", (_label, schemaVersion) => {
    expect(violationsOf(validEnvelope({ schemaVersion })).map((v) => v.instancePath)).toEqual([
      "/schemaVersion",
    ]);
  });

  it("accepts any integer schemaVersion of 1 or more", () => {
    expect(parseEnvelope(validEnvelope({ schemaVersion: 99 })).ok).toBe(true);
  });

  it("names every missing required member with a pointer to it", () => {
    const violations = violationsOf({});

    expect(violations).toEqual(
      ["/schemaVersion", "/eventId", "/timestamp", "/type", "/payload"].map((instancePath) => ({
        instancePath,
        message: "is required",
      })),
    );
  });

  it("rejects a body that is not an object with the root pointer", () => {
    expect(violationsOf([1, 2])).toEqual([{ instancePath: "", message: "must be an object" }]);
    expect(violationsOf("text")[0]?.instancePath).toBe("");
  });

  it.each([
    "2025-01-01T00:00:00",
    "2025-01-01",
    "2025-13-01T00:00:00Z",
    "2025-02-29T00:00:00Z",
    "2025-01-01T24:00:00Z",
    "yesterday",
  ])("rejects timestamp %s", (timestamp) => {
    expect(violationsOf(validEnvelope({ timestamp })).map((v) => v.instancePath)).toEqual(["/timestamp"]);
  });

  it.each([
    "2025-01-01T00:00:00Z",
    "2025-01-01T00:00:00+02:00",
    "2025-01-01 00:00:00.5z",
    "2024-02-29t23:59:60-05:30",
  ])("accepts RFC 3339 timestamp %s", (timestamp) => {
    expect(parseEnvelope(validEnvelope({ timestamp })).ok).toBe(true);
  });

  it.each([
    ["payload", [], "/payload"],
    ["payload", null, "/payload"],
    ["eventId", 123, "/eventId"],
    ["eventId", "", "/eventId"],
    ["type", "", "/type"],
    ["correlationId", 12345, "/correlationId"],
    ["correlationId", null, "/correlationId"],
    ["source", "audit-qs", "/source"],
  ])("rejects %s = %j at %s", (member, value, pointer) => {
    expect(violationsOf(validEnvelope({ [member]: value })).map((v) => v.instancePath)).toEqual([pointer]);
  });

  it("rejects unknown source.kind and source.name and an empty source.version", () => {
    const violations = violationsOf(
      validEnvelope({ source: { kind: "browser", name: "other", version: "" } }),
    );

    expect(violations.map((v) => v.instancePath)).toEqual([
      "/source/kind",
      "/source/name",
      "/source/version",
    ]);
  });

  it("lists every violation at once", () => {
    const violations = violationsOf({ schemaVersion: "1", eventId: 5, timestamp: "x", type: 1, payload: 2 });

    expect(violations).toHaveLength(5);
  });

  it("escapes ~ and / in pointers (RFC 6901)", async () => {
    const { issuePointer } = await import("../../../../core/shared/json-pointer.ts");
    const pointer = issuePointer({
      path: [{ key: "a/b" }, { key: "c~d" }, { key: 0 }],
    } as unknown as Parameters<typeof issuePointer>[0]);

    expect(pointer).toBe("/a~1b/c~0d/0");
  });
});
