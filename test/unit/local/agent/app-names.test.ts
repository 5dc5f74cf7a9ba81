/**
 * The app-name poller on a manual clock with a fake listing: when it fetches, what it does with
 * the answer, how it logs and how it stops. The listing over the wire is tested against the
 * simulated platform (test/integration/local/agent/app-names.test.ts).
 */
import { describe, expect, it } from "vitest";
import { createMemoryAppNameCache } from "../../../../core/adapters/local/memory-app-name-cache.ts";
import { readRepositoryApps } from "../../../../core/adapters/platform/repository-apps.ts";
import { PlatformResponseError, PlatformUnreachableError } from "../../../../core/platform/errors.ts";
import type { PlatformApp } from "../../../../core/ports.ts";
import { type AppNames, type AppNamesDeps, startAppNames } from "../../../../local/agent/app-names.ts";
import { type AsyncManualClock, createAsyncManualClock } from "../../../helpers/async-manual-clock.ts";
import { createMemoryMetricsRegistry } from "../../../helpers/memory-metrics-registry.ts";
import { type RecordingLogger, recordingLogger } from "../../../helpers/recording-logger.ts";

const INTERVAL = 10_000;
const SALES = { id: "1f4b3b8e-6c62-4d6e-9a1c-0e5e7f5e2a01", name: "Sales dashboard" };
const FINANCE = { id: "2a7c9d10-8b3e-4f21-a0d4-5c6b7e8f9a02", name: "Finance" };

interface Deferred {
  promise: Promise<PlatformApp[]>;
  resolve(apps: PlatformApp[]): void;
}

function deferred(): Deferred {
  let resolve: (apps: PlatformApp[]) => void = () => {};
  const promise = new Promise<PlatformApp[]>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** A listing that answers each call with the next scripted answer (the last one repeats). */
function scriptedListing(answers: (() => Promise<PlatformApp[]>)[]) {
  const listing = {
    calls: 0,
    listRepositoryApps(): Promise<PlatformApp[]> {
      const answer = answers[Math.min(listing.calls, answers.length - 1)];
      listing.calls += 1;
      if (answer === undefined) throw new Error("no scripted answer");
      return answer();
    },
  };
  return listing;
}

const ok =
  (...apps: PlatformApp[]) =>
  () =>
    Promise.resolve(apps);
const fails = (error: Error) => () => Promise.reject(error);

interface Harness {
  clock: AsyncManualClock;
  logger: RecordingLogger;
  cache: ReturnType<typeof createMemoryAppNameCache>;
  listing: ReturnType<typeof scriptedListing>;
}

function harness(answers: (() => Promise<PlatformApp[]>)[]): Harness {
  return {
    clock: createAsyncManualClock(),
    logger: recordingLogger(),
    cache: createMemoryAppNameCache(),
    listing: scriptedListing(answers),
  };
}

function start(h: Harness, extra: Partial<AppNamesDeps> = {}): Promise<AppNames> {
  return startAppNames({
    listing: h.listing,
    cache: h.cache,
    intervalMs: INTERVAL,
    server: "sense.example.com:4242",
    clock: h.clock,
    logger: h.logger,
    ...extra,
  });
}

const warnings = (logger: RecordingLogger) => logger.at("warn").map((entry) => entry.message);

describe("app-name poller: when it fetches", () => {
  it("fetches once at start, before start resolves, and fills the cache with lower-case ids", async () => {
    // Prepare
    const h = harness([ok({ id: SALES.id.toUpperCase(), name: SALES.name })]);

    // Act
    const poller = await start(h);

    // Assess
    expect(h.listing.calls).toBe(1);
    expect(h.cache.nameOf(SALES.id)).toBe("Sales dashboard");
    expect(poller.stats()).toMatchObject({ succeeded: 1, failed: 0, apps: 1 });
    await poller.stop();
  });

  it("fetches again every intervalMs, not sooner", async () => {
    // Prepare
    const h = harness([ok(SALES)]);
    const poller = await start(h);

    // Act + Assess
    await h.clock.advance(INTERVAL - 1);
    expect(h.listing.calls).toBe(1);
    await h.clock.advance(1);
    expect(h.listing.calls).toBe(2);
    await h.clock.advance(INTERVAL * 3);
    expect(h.listing.calls).toBe(5);
    await poller.stop();
  });

  it("skips a beat while the previous fetch is still running, with a WARN, and fetches on the next", async () => {
    // Prepare: the second fetch hangs past two beats
    const slow = deferred();
    const h = harness([ok(SALES), () => slow.promise, ok(FINANCE)]);
    const poller = await start(h);
    await h.clock.advance(INTERVAL);
    expect(h.listing.calls).toBe(2);

    // Act
    await h.clock.advance(INTERVAL);

    // Assess
    expect(h.listing.calls).toBe(2);
    expect(poller.stats().skipped).toBe(1);
    expect(warnings(h.logger)).toEqual(["the previous app-name fetch is still running; this one is skipped"]);
    slow.resolve([SALES]);
    await h.clock.advance(INTERVAL);
    expect(h.listing.calls).toBe(3);
    expect(h.cache.nameOf(FINANCE.id)).toBe("Finance");
    await poller.stop();
  });
});

describe("app-name poller: what replaces the cache", () => {
  it("keeps the previous names when a fetch fails, and replaces them all after the next success", async () => {
    // Prepare
    const h = harness([
      ok(SALES, FINANCE),
      fails(new PlatformResponseError("repository answered GET /qrs/app with HTTP 500", { status: 500 })),
      ok({ ...FINANCE, name: "Finance (renamed)" }),
    ]);
    const poller = await start(h);

    // Act
    await h.clock.advance(INTERVAL);

    // Assess
    expect([h.cache.nameOf(SALES.id), h.cache.nameOf(FINANCE.id)]).toEqual(["Sales dashboard", "Finance"]);
    expect(poller.stats()).toMatchObject({ succeeded: 1, failed: 1, apps: 2 });
    expect(poller.stats().lastError).toMatch(/HTTP 500/);
    await h.clock.advance(INTERVAL);
    expect([h.cache.nameOf(SALES.id), h.cache.nameOf(FINANCE.id)]).toEqual([undefined, "Finance (renamed)"]);
    expect(poller.stats()).toMatchObject({ succeeded: 2, failed: 1, apps: 1, lastError: undefined });
    await poller.stop();
  });

  it("records each failed fetch as APP_NAMES_EXTRACT for the repository (error tracking)", async () => {
    const h = harness([ok(SALES), fails(new Error("unreachable")), ok(SALES)]);
    const recorded: string[] = [];
    const poller = await start(h, {
      errors: { record: (type, server) => recorded.push(`${type} ${server}`) },
    });
    await h.clock.advance(INTERVAL);
    await h.clock.advance(INTERVAL);
    expect(recorded).toEqual(["APP_NAMES_EXTRACT sense.example.com:4242"]);
    await poller.stop();
  });

  it("keeps the previous names when the answer is a malformed app list", async () => {
    // Prepare: the listing reads canned repository bodies with the client's own reader
    const bodies: unknown[] = [[SALES], [SALES, { name: "No id" }], { rows: [FINANCE] }];
    let call = 0;
    const h = harness([]);
    const listing = {
      listRepositoryApps: async () =>
        readRepositoryApps(bodies[call++], { what: "GET /qrs/app", status: 200 }),
    };
    const poller = await start(h, { listing });

    // Act
    await h.clock.advance(INTERVAL);
    await h.clock.advance(INTERVAL);

    // Assess
    expect(call).toBe(3);
    expect(h.cache.nameOf(SALES.id)).toBe("Sales dashboard");
    expect(h.cache.size).toBe(1);
    expect(poller.stats()).toMatchObject({ succeeded: 1, failed: 2 });
    const warning = h.logger.at("warn")[0];
    expect(warning?.fields).toMatchObject({
      errorType: "APP_NAMES_EXTRACT",
      error: expect.stringMatching(/malformed app list: entry 1 has no string id/),
    });
    await poller.stop();
  });

  it("logs failures at WARN at most once a minute, with the reason and how many there were", async () => {
    // Prepare
    const h = harness([
      fails(new PlatformUnreachableError("repository at sense:4242 unreachable: ECONNREFUSED")),
    ]);
    const poller = await start(h);

    // Act: seven failures in a minute (at 0, 10, ... 60 s)
    await h.clock.advance(60_000);

    // Assess
    const failed = h.logger.at("warn");
    expect(failed.map((entry) => entry.fields?.failures)).toEqual([1, 6]);
    expect(failed[0]).toMatchObject({
      message: "fetching app names failed; the previous names are kept, the next fetch tries again",
      fields: {
        server: "sense.example.com:4242",
        errorType: "APP_NAMES_EXTRACT",
        error: "PlatformUnreachableError: repository at sense:4242 unreachable: ECONNREFUSED",
      },
    });
    expect(poller.stats().failed).toBe(7);
    await poller.stop();
  });

  it("counts fetches by outcome and the cached apps for the scrape endpoint", async () => {
    // Prepare
    const metrics = createMemoryMetricsRegistry();
    const slow = deferred();
    const h = harness([ok(SALES, FINANCE), fails(new Error("boom")), () => slow.promise]);
    const poller = await start(h, { metrics });

    // Act
    await h.clock.advance(INTERVAL * 3);

    // Assess
    const scraped = Object.fromEntries(metrics.scrape().map((metric) => [metric.name, metric.samples]));
    expect(scraped.steward_app_names_fetches_total).toEqual([
      { labels: { outcome: "succeeded" }, value: 1 },
      { labels: { outcome: "failed" }, value: 1 },
      { labels: { outcome: "skipped" }, value: 1 },
    ]);
    expect(scraped.steward_app_names_cached).toEqual([{ labels: {}, value: 2 }]);
    slow.resolve([]);
    await poller.stop();
  });
});

describe("app-name poller: start-up and shutdown", () => {
  it("never fails start-up when the platform is unreachable, and fills the cache on a later beat", async () => {
    // Prepare
    const h = harness([fails(new PlatformUnreachableError("unreachable: ECONNREFUSED")), ok(SALES)]);

    // Act
    const poller = await start(h);

    // Assess
    expect(h.cache.size).toBe(0);
    expect(warnings(h.logger)).toHaveLength(1);
    await h.clock.advance(INTERVAL);
    expect(h.cache.nameOf(SALES.id)).toBe("Sales dashboard");
    expect(h.logger.at("info").map((entry) => entry.message)).toContain("app names fetched");
    await poller.stop();
  });

  it("waits for a slow first fetch at most startWaitMs (3 s by default), then goes on without it", async () => {
    // Prepare
    const slow = deferred();
    const h = harness([() => slow.promise]);
    let started = false;

    // Act
    const starting = start(h).then((poller) => {
      started = true;
      return poller;
    });
    await h.clock.advance(2999);
    const startedBeforeWait = started;
    await h.clock.advance(1);

    // Assess
    expect(startedBeforeWait).toBe(false);
    expect(started).toBe(true);
    expect(warnings(h.logger)).toEqual([
      "the first app-name fetch is still running; start-up goes on without waiting for it",
    ]);
    slow.resolve([SALES]);
    await h.clock.settle();
    expect(h.cache.nameOf(SALES.id)).toBe("Sales dashboard");
    await (await starting).stop();
  });

  it("stop cancels the beat: no fetch after it", async () => {
    // Prepare
    const h = harness([ok(SALES)]);
    const poller = await start(h);

    // Act
    await poller.stop();
    await h.clock.advance(INTERVAL * 5);

    // Assess
    expect(h.listing.calls).toBe(1);
    expect(h.clock.pendingTimers()).toBe(0);
  });

  it("stop waits for a fetch in flight, and that fetch still fills the cache", async () => {
    // Prepare
    const slow = deferred();
    const h = harness([ok(SALES), () => slow.promise]);
    const poller = await start(h);
    await h.clock.advance(INTERVAL);
    let stopped = false;

    // Act
    const stopping = poller.stop().then(() => {
      stopped = true;
    });
    await h.clock.settle();
    const stoppedWhileFetching = stopped;
    slow.resolve([FINANCE]);
    await stopping;

    // Assess
    expect(stoppedWhileFetching).toBe(false);
    expect(h.cache.nameOf(FINANCE.id)).toBe("Finance");
  });

  it("stop gives up on a fetch that never ends after stopWaitMs, with a WARN", async () => {
    // Prepare
    const never = deferred();
    const h = harness([ok(SALES), () => never.promise]);
    const poller = await start(h, { stopWaitMs: 500 });
    await h.clock.advance(INTERVAL);
    let stopped = false;

    // Act
    const stopping = poller.stop().then(() => {
      stopped = true;
    });
    await h.clock.advance(499);
    const stoppedEarly = stopped;
    await h.clock.advance(1);
    await stopping;

    // Assess
    expect(stoppedEarly).toBe(false);
    expect(warnings(h.logger)).toEqual(["the app-name fetch still running at shutdown is abandoned"]);
  });
});
