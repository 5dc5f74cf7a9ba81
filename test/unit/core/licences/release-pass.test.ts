import { describe, expect, it } from "vitest";
import type { ReleasedLicence } from "../../../../core/licences/license-points.ts";
import type { LicenseSource } from "../../../../core/licences/license-source.ts";
import { type ReleasePassOptions, runReleasePass } from "../../../../core/licences/release-pass.ts";
import type {
  AccessLicenceEntry,
  LicenceUser,
  NeverReleaseRules,
  ReleasableType,
} from "../../../../core/licences/release-rules.ts";

const NOW = Date.parse("2027-03-31T12:00:00Z");
const DAY = 86_400_000;

const NO_RULES: NeverReleaseRules = {
  user: [],
  tag: [],
  customProperty: [],
  userDirectory: [],
  inactive: "ignore",
  blocked: "ignore",
  removedExternally: "ignore",
};

const user = (userId: string, more: Partial<LicenceUser> = {}): LicenceUser => ({
  userDirectory: "LAB",
  userId,
  inactive: false,
  blocked: false,
  removedExternally: false,
  tags: [],
  customProperties: [],
  ...more,
});

const entry = (id: string, userId: string, daysAgo: number, quarantined = false): AccessLicenceEntry => ({
  id,
  userRepositoryId: `u-${userId}`,
  lastUsedMs: NOW - daysAgo * DAY,
  quarantined,
});

/** A repository in memory that records every call, and fails the calls it is told to. */
function memorySource(
  lists: Partial<Record<ReleasableType, AccessLicenceEntry[]>>,
  users: LicenceUser[],
  failing: { list?: ReleasableType; user?: string; release?: string } = {},
) {
  const calls: string[] = [];
  const source: LicenseSource = {
    accessTypeOverview: async () => ({}),
    serverLicence: async () => ({}),
    systemInfo: async () => ({}),
    async accessLicences(type, cutoffIso) {
      calls.push(`list ${type} ${cutoffIso}`);
      if (failing.list === type) throw new Error("HTTP 500");
      return lists[type] ?? [];
    },
    async user(id) {
      calls.push(`user ${id}`);
      const found = users.find((each) => `u-${each.userId}` === id);
      if (found === undefined || failing.user === id) throw new Error(`HTTP 404 for ${id}`);
      return found;
    },
    async release(type, licenceId) {
      calls.push(`DELETE ${type} ${licenceId}`);
      if (failing.release === licenceId) throw new Error("HTTP 409");
    },
    close: () => {},
  };
  return { source, calls };
}

function options(source: LicenseSource, more: Partial<ReleasePassOptions> = {}) {
  const released: ReleasedLicence[] = [];
  return {
    released,
    options: {
      source,
      rules: NO_RULES,
      types: [
        { type: "professional", thresholdDays: 30 },
        { type: "analyzer", thresholdDays: 30 },
      ],
      dryRun: false,
      nowMs: NOW,
      onReleased: (licence: ReleasedLicence) => void released.push(licence),
      ...more,
    } satisfies ReleasePassOptions,
  };
}

describe("runReleasePass", () => {
  it("releases the unprotected licences, professional first, one call each, and keeps the protected", async () => {
    // Prepare
    const { source, calls } = memorySource(
      {
        professional: [entry("p1", "anna", 40), entry("p2", "bert", 35)],
        analyzer: [entry("a1", "cleo", 60)],
      },
      [user("anna"), user("bert", { tags: ["Keep"] }), user("cleo")],
    );
    const { options: opts, released } = options(source, { rules: { ...NO_RULES, tag: ["Keep"] } });

    // Act
    const summary = await runReleasePass(opts);

    // Assess
    expect(calls.filter((call) => call.startsWith("DELETE"))).toEqual([
      "DELETE professional p1",
      "DELETE analyzer a1",
    ]);
    expect(calls[0]).toBe("list professional 2027-03-01T23:59:59.999Z");
    expect(summary.outcomes.map((o) => [o.licenceId, o.user, o.outcome, o.reason])).toEqual([
      ["p1", "LAB\\anna", "released", undefined],
      ["p2", "LAB\\bert", "kept", 'has the tag "Keep"'],
      ["a1", "LAB\\cleo", "released", undefined],
    ]);
    expect(released).toEqual([
      { type: "professional", user: "LAB\\anna", daysSinceLastUse: 40 },
      { type: "analyzer", user: "LAB\\cleo", daysSinceLastUse: 60 },
    ]);
  });

  it("in a dry run says what it would release and sends no DELETE", async () => {
    const { source, calls } = memorySource({ professional: [entry("p1", "anna", 40)] }, [user("anna")]);
    const { options: opts, released } = options(source, { dryRun: true });

    const summary = await runReleasePass(opts);

    expect(calls.some((call) => call.startsWith("DELETE"))).toBe(false);
    expect(released).toEqual([]);
    expect(summary).toMatchObject({
      dryRun: true,
      outcomes: [{ licenceId: "p1", outcome: "would_release" }],
    });
  });

  it("skips quarantined entries and those the list gave although used after the cut-off", async () => {
    const { source, calls } = memorySource(
      { professional: [entry("p1", "anna", 40, true), entry("p2", "bert", 3)] },
      [user("anna"), user("bert")],
    );

    const summary = await runReleasePass(options(source).options);

    expect(summary.outcomes).toEqual([]);
    expect(calls.filter((call) => !call.startsWith("list"))).toEqual([]);
  });

  it("goes on past a failed list, user or release, and says of each what happened", async () => {
    // Prepare
    const { source, calls } = memorySource(
      {
        professional: [entry("p1", "anna", 40), entry("p2", "bert", 40), entry("p3", "cleo", 40)],
        analyzer: [],
      },
      [user("anna"), user("bert"), user("cleo")],
      { list: "analyzer", user: "u-anna", release: "p2" },
    );

    // Act
    const summary = await runReleasePass(options(source).options);

    // Assess
    expect(summary.unreadTypes).toEqual([{ type: "analyzer", reason: expect.stringContaining("HTTP 500") }]);
    expect(summary.outcomes.map((o) => [o.licenceId, o.user, o.outcome])).toEqual([
      ["p1", "u-anna", "failed"],
      ["p2", "LAB\\bert", "failed"],
      ["p3", "LAB\\cleo", "released"],
    ]);
    expect(summary.outcomes[0]?.reason).toContain("user not read");
    expect(summary.outcomes[1]?.reason).toContain("HTTP 409");
    expect(calls.filter((call) => call.startsWith("DELETE"))).toEqual([
      "DELETE professional p2",
      "DELETE professional p3",
    ]);
  });

  it("stops at the signal: no call after it, the read it gave up no failure, and says it stopped", async () => {
    // Prepare: Steward stops while the user of the second licence is read.
    const { source, calls } = memorySource(
      {
        professional: [entry("p1", "anna", 40), entry("p2", "bert", 40), entry("p3", "cleo", 40)],
        analyzer: [entry("a1", "dora", 40)],
      },
      [user("anna"), user("bert"), user("cleo"), user("dora")],
    );
    const stop = new AbortController();
    const read = source.user.bind(source);
    source.user = async (id, signal) => {
      if (id === "u-bert") {
        stop.abort();
        throw signal?.reason;
      }
      return read(id, signal);
    };

    // Act
    const summary = await runReleasePass(options(source, { signal: stop.signal }).options);

    // Assess
    expect(summary.stopped).toBe(true);
    expect(summary.outcomes.map((o) => [o.licenceId, o.outcome])).toEqual([["p1", "released"]]);
    expect(summary.unreadTypes).toEqual([]);
    expect(calls.slice(-1)).toEqual(["DELETE professional p1"]);
    expect(calls.some((call) => call.includes("cleo") || call.includes("analyzer"))).toBe(false);
  });

  it("says it did not stop when it looked at every licence", async () => {
    const { source } = memorySource({ professional: [entry("p1", "anna", 40)] }, [user("anna")]);

    const summary = await runReleasePass(options(source, { signal: new AbortController().signal }).options);

    expect(summary.stopped).toBe(false);
  });

  it("handles only the types it is given, each with its own threshold", async () => {
    const { source, calls } = memorySource({ analyzer: [entry("a1", "anna", 10)] }, [user("anna")]);

    const summary = await runReleasePass(
      options(source, { types: [{ type: "analyzer", thresholdDays: 7 }] }).options,
    );

    expect(calls[0]).toBe("list analyzer 2027-03-24T23:59:59.999Z");
    expect(calls.some((call) => call.includes("professional"))).toBe(false);
    expect(summary.outcomes).toMatchObject([{ licenceId: "a1", outcome: "released", daysSinceLastUse: 10 }]);
  });
});
