import { describe, expect, it } from "vitest";
import { readEngineHealth } from "../../../../core/platform/engine-health.ts";
import { PlatformResponseError } from "../../../../core/platform/errors.ts";

const context = { where: "engine health check at qs1:4747", call: "GET /engine/healthcheck", status: 200 };

function answer(): Record<string, unknown> {
  return {
    version: "12.1657.0",
    started: "20250302T174500.000+0100",
    mem: { committed: 4101.5, allocated: 3920.25, free: 28666.5, totalPhysical: 32768 },
    apps: {
      active_docs: ["1f4b3b8e-6c62-4d6e-9a1c-0e5e7f5e2a01"],
      in_memory_docs: ["1f4b3b8e-6c62-4d6e-9a1c-0e5e7f5e2a01", "SessionApp_5d1b"],
      loaded_docs: ["SessionApp_5d1b"],
      calls: 1200,
      selections: 310,
    },
    cpu: { total: 12.5 },
    session: { active: 3, total: 5 },
    users: { active: 2, total: 4 },
    cache: { hits: 90, lookups: 120, added: 30, replaced: 2, bytes_added: 40960 },
    saturated: false,
  };
}

function problemOf(body: unknown): string {
  try {
    readEngineHealth(body, context);
  } catch (error) {
    expect(error).toBeInstanceOf(PlatformResponseError);
    expect((error as PlatformResponseError).status).toBe(200);
    return (error as Error).message;
  }
  throw new Error("expected a PlatformResponseError");
}

describe("readEngineHealth", () => {
  it("reads every member the agent uses and drops the ones it does not", () => {
    // Act
    const health = readEngineHealth({ ...answer(), newMember: { x: 1 } }, context);

    // Assess
    expect(health).toEqual({
      ...answer(),
      mem: { committed: 4101.5, allocated: 3920.25, free: 28666.5 },
    });
  });

  it("rejects a missing numeric group, naming it and the host", () => {
    // Prepare
    const { cache: _cache, ...withoutCache } = answer();

    // Act
    const message = problemOf(withoutCache);

    // Assess
    expect(message).toBe(
      "engine health check at qs1:4747 answered GET /engine/healthcheck with a health check of an unexpected shape (cache: missing)",
    );
  });

  it("rejects a number sent as text, naming the member but not the value", () => {
    // Prepare
    const body = answer();
    body.mem = { committed: "4101.5", allocated: 1, free: 1 };

    // Act
    const message = problemOf(body);

    // Assess
    expect(message).toMatch(/\(mem\.committed: expected number, got a string\)$/);
    expect(message).not.toContain("4101");
  });

  it.each([
    ["nothing", undefined],
    ["null", null],
    ["a string", "OK"],
  ])("rejects a body that is %s", (what, body) => {
    expect(problemOf(body)).toMatch(new RegExp(`\\(body: expected Object, got ${what}\\)$`));
  });

  it("rejects a list, which has none of the members", () => {
    expect(problemOf([])).toMatch(/\(version: missing\)$/);
  });

  it("rejects an app list holding something other than ids", () => {
    // Prepare
    const body = answer();
    body.apps = { ...(body.apps as object), loaded_docs: [{ id: "x" }] };

    // Act / Assess
    expect(problemOf(body)).toMatch(/\(apps\.loaded_docs\.0: expected string, got an object\)$/);
  });

  it("accepts a start timestamp it cannot parse (the uptime is then empty, not an error)", () => {
    expect(readEngineHealth({ ...answer(), started: "yesterday" }, context).started).toBe("yesterday");
  });
});
