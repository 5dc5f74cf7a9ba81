import { describe, expect, it } from "vitest";
import { createUserExclusion, uniqueUserList } from "../../../../core/polling/session-users.ts";
import { SESSIONS } from "./polling-fixtures.ts";

describe("uniqueUserList", () => {
  it("joins each DIR\\ID once, in first-seen order, with ,", () => {
    expect(uniqueUserList(SESSIONS)).toBe("LAB\\anna,LAB\\svc_monitor,CORP\\bob");
  });

  it("is '' for no sessions", () => {
    expect(uniqueUserList([])).toBe("");
  });
});

describe("createUserExclusion", () => {
  const isExcluded = createUserExclusion([
    { directory: "LAB", userId: "svc_monitor" },
    { directory: "CORP", userId: "sa_scheduler" },
  ]);

  it("matches a listed directory and user id", () => {
    expect(isExcluded("LAB", "svc_monitor")).toBe(true);
    expect(isExcluded("CORP", "sa_scheduler")).toBe(true);
  });

  it("needs both parts to match", () => {
    expect(isExcluded("LAB", "sa_scheduler")).toBe(false);
    expect(isExcluded("CORP", "svc_monitor")).toBe(false);
  });

  it("matches case-sensitively, as UDP user events do", () => {
    expect(isExcluded("lab", "svc_monitor")).toBe(false);
    expect(isExcluded("LAB", "SVC_MONITOR")).toBe(false);
  });

  it("excludes nobody with an empty list", () => {
    expect(createUserExclusion([])("LAB", "svc_monitor")).toBe(false);
  });
});
