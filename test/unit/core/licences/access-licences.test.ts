import { describe, expect, it } from "vitest";
import { AccessLicenceOverviewError, readAccessLicences } from "../../../../core/licences/access-licences.ts";

/** The overview as the repository gives it, every type switched on. */
const OVERVIEW = {
  totalTokens: 100,
  availableTokens: 20,
  tokensEnabled: true,
  professionalAccess: {
    enabled: true,
    allocated: 30,
    available: 20,
    excess: 0,
    quarantined: 1,
    total: 50,
    used: 28,
  },
  analyzerAccess: {
    enabled: true,
    allocated: 60,
    available: 40,
    excess: 2,
    quarantined: 0,
    total: 100,
    used: 55,
  },
  analyzerTimeAccess: { enabled: true, allocatedMinutes: 6000, unavailableMinutes: 10, usedMinutes: 1234 },
  loginAccess: { enabled: true, allocatedTokens: 10, tokenCost: 0.1, unavailableTokens: 1, usedTokens: 7 },
  userAccess: { enabled: true, allocatedTokens: 40, quarantinedTokens: 2, tokenCost: 1, usedTokens: 33 },
};

describe("readAccessLicences", () => {
  it("gives one reading per switched-on type with the stored field names", () => {
    expect(readAccessLicences(OVERVIEW)).toEqual([
      {
        type: "professional",
        counts: { allocated: 30, available: 20, excess: 0, quarantined: 1, total: 50, used: 28 },
      },
      {
        type: "analyzer",
        counts: { allocated: 60, available: 40, excess: 2, quarantined: 0, total: 100, used: 55 },
      },
      {
        type: "analyzer_capacity",
        counts: { allocated_minutes: 6000, unavailable_minutes: 10, used_minutes: 1234 },
      },
      {
        type: "token_login",
        counts: { allocated_tokens: 10, token_cost: 0.1, unavailable_tokens: 1, used_tokens: 7 },
      },
      {
        type: "token_user",
        counts: { allocated_tokens: 40, quarantined_tokens: 2, token_cost: 1, used_tokens: 33 },
      },
      { type: "tokens_available", counts: { available_tokens: 20, total_tokens: 100 } },
    ]);
  });

  it("reads user access's used tokens from the repository's usedTokens, not from userTokens", () => {
    const readings = readAccessLicences({
      ...OVERVIEW,
      userAccess: { enabled: true, allocatedTokens: 40, userTokens: 99, usedTokens: 12 },
    });

    expect(readings.find((r) => r.type === "token_user")?.counts).toEqual({
      allocated_tokens: 40,
      used_tokens: 12,
    });
  });

  it("leaves out types switched off, and the token totals when tokens are off", () => {
    const readings = readAccessLicences({
      ...OVERVIEW,
      tokensEnabled: false,
      loginAccess: { ...OVERVIEW.loginAccess, enabled: false },
      userAccess: { ...OVERVIEW.userAccess, enabled: "true" },
    });

    expect(readings.map((r) => r.type)).toEqual(["professional", "analyzer", "analyzer_capacity"]);
  });

  it("leaves out a count that is missing or not a finite number rather than writing 0", () => {
    const readings = readAccessLicences({
      professionalAccess: {
        enabled: true,
        allocated: 3,
        available: null,
        total: "50",
        used: Number.NaN,
        excess: 1,
      },
      analyzerAccess: { enabled: true, note: "no counts" },
    });

    expect(readings).toEqual([{ type: "professional", counts: { allocated: 3, excess: 1 } }]);
  });

  it.each([[null], [[]], ["overview"]])("refuses %j as an overview", (body) => {
    expect(() => readAccessLicences(body)).toThrow(AccessLicenceOverviewError);
  });
});
