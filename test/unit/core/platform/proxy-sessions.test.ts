import { describe, expect, it } from "vitest";
import { PlatformResponseError } from "../../../../core/platform/errors.ts";
import { readProxySessions } from "../../../../core/platform/proxy-sessions.ts";

const context = { where: "proxy at qs1:4243", call: "GET /qps/hdr/session", status: 200 };
const SECRET_SESSION = "8d2c0d0e-5b41-4c4a-9a86-1e0c7a3f2b11";

describe("readProxySessions", () => {
  it("reads the sessions and keeps the answer as received", () => {
    // Prepare
    const body = [
      { UserDirectory: "LAB", UserId: "anna", SessionId: SECRET_SESSION, Attributes: [{ group: "x" }] },
      { UserDirectory: "INTERNAL", UserId: "sa_scheduler", SessionId: "s2", Attributes: [], Extra: 1 },
    ];

    // Act
    const list = readProxySessions(body, context);

    // Assess
    expect(list.sessions).toEqual([
      { userDirectory: "LAB", userId: "anna", sessionId: SECRET_SESSION },
      { userDirectory: "INTERNAL", userId: "sa_scheduler", sessionId: "s2" },
    ]);
    expect(list.raw).toBe(body);
  });

  it("reads an empty list as no sessions", () => {
    expect(readProxySessions([], context).sessions).toEqual([]);
  });

  it("accepts entries without Attributes (not used)", () => {
    expect(
      readProxySessions([{ UserDirectory: "D", UserId: "u", SessionId: "s" }], context).sessions,
    ).toHaveLength(1);
  });

  it.each([
    ["an object", { sessions: [] }, "body: expected Array, got an object"],
    ["an entry without a user id", [{ UserDirectory: "D", SessionId: SECRET_SESSION }], "0.UserId: missing"],
    [
      "a numeric session id",
      [{ UserDirectory: "D", UserId: "u", SessionId: 7 }],
      "0.SessionId: expected string, got a number",
    ],
  ])("rejects %s as a whole, naming the host and the member", (_what, body, problem) => {
    // Act
    let caught: unknown;
    try {
      readProxySessions(body, context);
    } catch (error) {
      caught = error;
    }

    // Assess
    expect(caught).toBeInstanceOf(PlatformResponseError);
    expect((caught as Error).message).toBe(
      `proxy at qs1:4243 answered GET /qps/hdr/session with a session list of an unexpected shape (${problem})`,
    );
    expect((caught as Error).message).not.toContain(SECRET_SESSION);
  });
});
