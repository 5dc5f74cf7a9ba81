/**
 * The simulated platform's licences: the access licence overview, whose allocated and used counts
 * move a little at every read (so a dashboard shows them changing), the server licence expiring a
 * configurable number of days from start, the version, and the allocated professional and
 * analyzer licences of a small set of users made so that each never-release rule has a user it
 * protects. Releasing a licence removes it from its list (and from the allocated count).
 */

const DAY_MS = 86_400_000;

export interface SimLicenceUser {
  readonly id: string;
  readonly userDirectory: string;
  readonly userId: string;
  readonly inactive: boolean;
  readonly blacklisted: boolean;
  readonly removedExternally: boolean;
  readonly tags: readonly string[];
  readonly customProperties: readonly { readonly name: string; readonly value: string }[];
}

export interface SimAccessLicence {
  readonly id: string;
  readonly type: "professional" | "analyzer";
  readonly userId: string;
  readonly lastUsedMs: number;
  readonly quarantined: boolean;
}

export interface LicenseSimulation {
  /** `YYYY-MM-DD`: the server licence's Valid To day. */
  expiryDate: string;
  readonly users: readonly SimLicenceUser[];
  /** The allocated access licences; a release removes one. */
  readonly licences: SimAccessLicence[];
  /** Licence ids released, in order. */
  readonly released: string[];
  /** Licence ids whose release the repository refuses (409), to show a failed release. */
  readonly refusedReleases: Set<string>;
  /** Epoch ms and uniform [0, 1): the simulated server's. */
  readonly now: () => number;
  readonly random: () => number;
  /** Allocated and used seats besides the listed licences; moved at every overview read. */
  readonly seats: {
    professionalUsed: number;
    analyzerUsed: number;
    extraAllocated: number;
    capacityUsed: number;
  };
}

/** The user of each rule (ids are the repository's user ids). */
export const SIM_LICENCE_USERS: readonly SimLicenceUser[] = [
  user("u-sa", "INTERNAL", "sa_repository"),
  user("u-alice", "LAB", "alice"),
  user("u-bob", "LAB", "bob", { tags: ["License do not release"] }),
  user("u-carol", "LAB", "carol", {
    customProperties: [{ name: "LicenseManage", value: "do-not-release" }],
  }),
  user("u-dave", "ADMIN", "dave"),
  user("u-erin", "LAB", "erin", { inactive: true }),
  user("u-frank", "LAB", "frank", { blacklisted: true }),
  user("u-grace", "LAB", "grace", { removedExternally: true }),
  user("u-heidi", "LAB", "heidi"),
  user("u-ivan", "LAB", "ivan"),
  user("u-judy", "LAB", "judy"),
  user("u-mallory", "LAB", "mallory"),
];

function user(
  id: string,
  userDirectory: string,
  userId: string,
  more: Partial<SimLicenceUser> = {},
): SimLicenceUser {
  return {
    id,
    userDirectory,
    userId,
    inactive: false,
    blacklisted: false,
    removedExternally: false,
    tags: [],
    customProperties: [],
    ...more,
  };
}

/** `[licence id, type, user id, days since last use, quarantined]`. */
const LICENCES: readonly [string, "professional" | "analyzer", string, number, boolean][] = [
  ["pro-sa", "professional", "u-sa", 90, false],
  ["pro-alice", "professional", "u-alice", 90, false],
  ["pro-bob", "professional", "u-bob", 90, false],
  ["pro-carol", "professional", "u-carol", 90, false],
  ["pro-dave", "professional", "u-dave", 90, false],
  ["pro-erin", "professional", "u-erin", 90, false],
  ["pro-frank", "professional", "u-frank", 90, false],
  ["pro-grace", "professional", "u-grace", 90, false],
  ["pro-heidi", "professional", "u-heidi", 2, false],
  ["pro-ivan", "professional", "u-ivan", 120, true],
  ["ana-judy", "analyzer", "u-judy", 45, false],
  ["ana-mallory", "analyzer", "u-mallory", 10, false],
];

export const PROFESSIONAL_TOTAL = 50;
export const ANALYZER_TOTAL = 200;
export const CAPACITY_MINUTES = 6000;

/** The Valid To day `days` days after the UTC day of `nowMs`. */
export function expiryDateIn(days: number, nowMs: number): string {
  return new Date(Math.floor(nowMs / DAY_MS) * DAY_MS + days * DAY_MS).toISOString().slice(0, 10);
}

export interface LicenseSimulationOptions {
  /** Days from today (UTC) to the server licence's Valid To day. */
  readonly expiresInDays: number;
  readonly now: () => number;
  readonly random: () => number;
}

function allocatedLicences(nowMs: number): SimAccessLicence[] {
  return LICENCES.map(([id, type, userId, days, quarantined]) => ({
    id,
    type,
    userId,
    lastUsedMs: nowMs - days * DAY_MS,
    quarantined,
  }));
}

export function createLicenseSimulation(options: LicenseSimulationOptions): LicenseSimulation {
  return {
    expiryDate: expiryDateIn(options.expiresInDays, options.now()),
    users: SIM_LICENCE_USERS,
    licences: allocatedLicences(options.now()),
    released: [],
    refusedReleases: new Set(),
    now: options.now,
    random: options.random,
    seats: { professionalUsed: 6, analyzerUsed: 40, extraAllocated: 60, capacityUsed: 1200 },
  };
}

/** Gives every released licence back and forgets the releases and refusals (the expiry day stays). */
export function resetLicenseSimulation(sim: LicenseSimulation): void {
  sim.licences.splice(0, sim.licences.length, ...allocatedLicences(sim.now()));
  sim.released.length = 0;
  sim.refusedReleases.clear();
}

/** Moves `value` by up to ±`step`, kept within [min, max]. */
function drift(value: number, step: number, min: number, max: number, random: () => number): number {
  const moved = value + Math.round((random() * 2 - 1) * step);
  return Math.min(max, Math.max(min, moved));
}

/** The access type overview as the repository answers it; the counts move at every call. */
export function accessTypeOverview(sim: LicenseSimulation): Record<string, unknown> {
  const { seats, random } = sim;
  seats.extraAllocated = drift(seats.extraAllocated, 3, 40, 80, random);
  seats.capacityUsed = drift(seats.capacityUsed, 150, 0, CAPACITY_MINUTES, random);
  const listed = (type: string) => sim.licences.filter((licence) => licence.type === type).length;
  const professionalAllocated = listed("professional") + Math.floor(seats.extraAllocated / 4);
  const analyzerAllocated = listed("analyzer") + seats.extraAllocated;
  seats.professionalUsed = drift(seats.professionalUsed, 2, 0, professionalAllocated, random);
  seats.analyzerUsed = drift(seats.analyzerUsed, 5, 0, analyzerAllocated, random);
  const details = (total: number, allocated: number, used: number, quarantined: number) => ({
    enabled: true,
    total,
    allocated,
    used,
    quarantined,
    excess: 0,
    available: total - allocated - quarantined,
    schemaPath: "AccessTypeOverview.Details",
  });
  return {
    totalTokens: 0,
    availableTokens: 0,
    tokensEnabled: false,
    userAccess: { enabled: false, tokenCost: 1, allocatedTokens: 0, usedTokens: 0, quarantinedTokens: 0 },
    loginAccess: { enabled: false, tokenCost: 0.1, allocatedTokens: 0, usedTokens: 0, unavailableTokens: 0 },
    professionalAccess: details(PROFESSIONAL_TOTAL, professionalAllocated, seats.professionalUsed, 1),
    analyzerAccess: details(ANALYZER_TOTAL, analyzerAllocated, seats.analyzerUsed, 0),
    analyzerTimeAccess: {
      enabled: true,
      allocatedMinutes: CAPACITY_MINUTES,
      usedMinutes: seats.capacityUsed,
      unavailableMinutes: 0,
    },
    schemaPath: "AccessTypeOverview",
  };
}

/** The server licence as `GET /qrs/license` answers it. */
export function serverLicence(sim: LicenseSimulation, nowMs: number): Record<string, unknown> {
  const expiresAt = Date.parse(`${sim.expiryDate}T00:00:00Z`) + DAY_MS;
  return {
    id: "5f0e8a1c-0000-4000-8000-00000000c0de",
    name: "Simulated site licence",
    organization: "Simulated Ltd",
    serial: "9999000011112222",
    isExpired: nowMs >= expiresAt,
    expiredReason: "",
    isBlacklisted: false,
    isInvalid: false,
    keyDetails: [
      "Product: Qlik Sense Enterprise Professional/Analyzer Access",
      "Serial: 9999000011112222",
      "Valid From: 2024-01-01",
      `Valid To: ${sim.expiryDate}`,
      "Professional: 50",
      "Analyzer: 200",
    ].join("\n"),
    schemaPath: "License",
  };
}

export const SIM_SYSTEM_INFO = {
  contentHash: "6f1c2e3d4b5a69788796a5b4c3d2e1f0",
  senseId: "qliksenseserver:14.212.5",
  version: "14.212.5",
  deploymentType: "QlikSenseServer",
  releaseLabel: "May 2025 Patch 3",
  deprecatedProductVersion: "4.0.X",
  productName: "Qlik Sense",
  copyrightYearRange: "1993-2025",
} as const;
