import { describe, expect, it } from "vitest";
import {
  daysSinceLastUse,
  entrySkipReason,
  keepReason,
  type LicenceUser,
  type NeverReleaseRules,
  releaseCutoffMs,
} from "../../../../core/licences/release-rules.ts";

const NO_RULES: NeverReleaseRules = {
  user: [],
  tag: [],
  customProperty: [],
  userDirectory: [],
  inactive: "ignore",
  blocked: "ignore",
  removedExternally: "ignore",
};

const USER: LicenceUser = {
  userDirectory: "LAB",
  userId: "anna",
  inactive: false,
  blocked: false,
  removedExternally: false,
  tags: ["Finance"],
  customProperties: [{ name: "Department", value: "Sales" }],
};

const at = (iso: string) => Date.parse(iso);

describe("keepReason", () => {
  it("releases a user no rule protects", () => {
    expect(keepReason(USER, NO_RULES)).toBeUndefined();
  });

  it("keeps a user listed by directory and id, without regard to case", () => {
    const rules = { ...NO_RULES, user: [{ userDir: "lab", userId: "ANNA" }] };

    expect(keepReason(USER, rules)).toBe("listed in neverRelease.user");
    expect(keepReason({ ...USER, userId: "bert" }, rules)).toBeUndefined();
    expect(keepReason({ ...USER, userDirectory: "OTHER" }, rules)).toBeUndefined();
  });

  it("keeps a user with a listed tag", () => {
    expect(keepReason(USER, { ...NO_RULES, tag: ["Admins", "Finance"] })).toBe('has the tag "Finance"');
    expect(keepReason(USER, { ...NO_RULES, tag: ["Admins"] })).toBeUndefined();
  });

  it("keeps a user with a listed custom property value, and only that value", () => {
    const rules = { ...NO_RULES, customProperty: [{ name: "Department", value: "Sales" }] };

    expect(keepReason(USER, rules)).toBe("has the custom property Department=Sales");
    expect(
      keepReason({ ...USER, customProperties: [{ name: "Department", value: "IT" }] }, rules),
    ).toBeUndefined();
  });

  it("keeps every user of a listed directory, without regard to case", () => {
    expect(keepReason(USER, { ...NO_RULES, userDirectory: ["Lab"] })).toBe(
      "user directory LAB is in neverRelease.userDirectory",
    );
  });

  it.each([
    ["inactive", "yes", { inactive: true }, "inactive is yes"],
    ["inactive", "no", { inactive: false }, "inactive is no"],
    ["blocked", "yes", { blocked: true }, "blocked is yes"],
    ["blocked", "no", { blocked: false }, "blocked is no"],
    ["removedExternally", "yes", { removedExternally: true }, "removed externally is yes"],
    ["removedExternally", "no", { removedExternally: false }, "removed externally is no"],
  ] as const)("rule %s: %s keeps a user whose flag matches", (rule, value, flags, reason) => {
    expect(keepReason({ ...USER, ...flags }, { ...NO_RULES, [rule]: value })).toBe(reason);
  });

  it.each([
    ["inactive", "yes", { inactive: false }],
    ["inactive", "no", { inactive: true }],
    ["blocked", "yes", { blocked: false }],
    ["blocked", "no", { blocked: true }],
    ["removedExternally", "yes", { removedExternally: false }],
    ["removedExternally", "no", { removedExternally: true }],
    ["inactive", "ignore", { inactive: true }],
    ["blocked", "ignore", { blocked: true }],
    ["removedExternally", "ignore", { removedExternally: true }],
  ] as const)("rule %s: %s releases a user whose flag does not match", (rule, value, flags) => {
    expect(keepReason({ ...USER, ...flags }, { ...NO_RULES, [rule]: value })).toBeUndefined();
  });
});

describe("releaseCutoffMs", () => {
  it("is the end (UTC) of the day the threshold of days before today", () => {
    expect(new Date(releaseCutoffMs(at("2027-03-31T15:20:00Z"), 30)).toISOString()).toBe(
      "2027-03-01T23:59:59.999Z",
    );
    expect(new Date(releaseCutoffMs(at("2027-03-31T00:00:00Z"), 1)).toISOString()).toBe(
      "2027-03-30T23:59:59.999Z",
    );
    expect(new Date(releaseCutoffMs(at("2027-03-31T23:59:59Z"), 0)).toISOString()).toBe(
      "2027-03-31T23:59:59.999Z",
    );
  });
});

describe("daysSinceLastUse", () => {
  it("counts whole days, never below 0", () => {
    const now = at("2027-03-31T12:00:00Z");

    expect(daysSinceLastUse(at("2027-03-01T12:00:00Z"), now)).toBe(30);
    expect(daysSinceLastUse(at("2027-03-01T12:00:01Z"), now)).toBe(29);
    expect(daysSinceLastUse(at("2027-04-01T12:00:00Z"), now)).toBe(0);
  });
});

describe("entrySkipReason", () => {
  const cutoff = at("2027-03-01T23:59:59.999Z");
  const entry = {
    id: "l1",
    userRepositoryId: "u1",
    lastUsedMs: at("2027-02-01T00:00:00Z"),
    quarantined: false,
  };

  it("takes an entry last used before the cut-off", () => {
    expect(entrySkipReason(entry, cutoff)).toBeUndefined();
    expect(entrySkipReason({ ...entry, lastUsedMs: cutoff }, cutoff)).toBeUndefined();
  });

  it("skips a quarantined entry, one used after the cut-off and one without a readable time", () => {
    expect(entrySkipReason({ ...entry, quarantined: true }, cutoff)).toBe("quarantined");
    expect(entrySkipReason({ ...entry, lastUsedMs: cutoff + 1 }, cutoff)).toBe("used after the cut-off");
    expect(entrySkipReason({ ...entry, lastUsedMs: undefined }, cutoff)).toBe("no readable last-used time");
  });
});
