import { describe, expect, it } from "vitest";
import { createEventDestinations } from "../../../../core/agent-destinations/create-event-destinations.ts";
import {
  type DestinationStats,
  declareDestinationMetrics,
} from "../../../../core/destinations/destination-stats.ts";
import { UnwrittenItemsError } from "../../../../core/destinations/item-batcher.ts";
import { ObservabilityPostError } from "../../../../core/observability/observability-post-error.ts";
import type {
  MetricSpec,
  MetricsRegistry,
  ObservabilityAccount,
  ObservabilityEvent,
  ObservabilityEventBatchClient,
} from "../../../../core/ports.ts";
import { createAsyncManualClock } from "../../../helpers/async-manual-clock.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { numberedPoint, recordingSeries } from "../../../helpers/recording-series.ts";

const accounts: ObservabilityAccount[] = [
  { accountName: "prod", insertApiKey: "k1", accountId: "1" },
  { accountName: "test", insertApiKey: "k2", accountId: "2" },
];

function recordingClient() {
  const client = {
    posts: [] as { account: string; events: string[] }[],
    failFor: new Map<string, number>(),
    async postEvents(events: readonly ObservabilityEvent[], account: ObservabilityAccount) {
      const status = client.failFor.get(account.accountName);
      if (status !== undefined)
        throw new ObservabilityPostError(account.accountName, status, `HTTP ${status}`);
      client.posts.push({ account: account.accountName, events: events.map((event) => event.eventType) });
    },
  } satisfies ObservabilityEventBatchClient & Record<string, unknown>;
  return client;
}

const events = (n: number) => Array.from({ length: n }, (_, i) => ({ eventType: `e${i}`, attributes: [] }));

describe("createEventDestinations: posting and failed writes", () => {
  it("ignores what is given to an absent destination and lists only present ones in stats", async () => {
    const clock = createAsyncManualClock();
    const destinations = createEventDestinations({ maxBatchSize: 10, clock, logger: recordingLogger() });

    await destinations.writePoints([numberedPoint(1)]);
    await destinations.writeMessages([{ topic: "t", payload: "p" }]);
    await destinations.writeEvents(events(1));
    await destinations.stop();

    expect(destinations.stats()).toEqual({});
  });

  it("posts events in batches to every account, each account on its own", async () => {
    const clock = createAsyncManualClock();
    const client = recordingClient();
    client.failFor.set("test", 503);
    const destinations = createEventDestinations({
      maxBatchSize: 1000,
      observability: { client, accounts: [...accounts, accounts[0]!] },
      maxEventsPerPost: 2,
      initialRetryDelayMs: 1000,
      clock,
      logger: recordingLogger(),
    });

    await destinations.writeEvents(events(3));
    await clock.advance(1000);
    client.failFor.delete("test");
    await clock.advance(2000);
    await destinations.stop();

    expect(client.posts).toEqual([
      { account: "prod", events: ["e0", "e1"] },
      { account: "prod", events: ["e2"] },
      { account: "test", events: ["e0", "e1"] },
      { account: "test", events: ["e2"] },
    ]);
    expect(Object.keys(destinations.stats())).toEqual(["obs-platform:prod", "obs-platform:test"]);
    expect(destinations.stats()["obs-platform:test"]).toMatchObject({ written: 3, failedWrites: 2 });
  });

  it("tells onWriteError of every failed write with the destination's name (error tracking)", async () => {
    const clock = createAsyncManualClock();
    const client = recordingClient();
    client.failFor.set("test", 503);
    const series = recordingSeries();
    series.down = true;
    const failures: string[] = [];
    const destinations = createEventDestinations({
      maxBatchSize: 10,
      series,
      broker: {
        publish: async () => {
          throw new Error("broker down");
        },
        close: async () => undefined,
      },
      observability: { client, accounts: [accounts[1]!] },
      initialRetryDelayMs: 1000,
      clock,
      logger: recordingLogger(),
      onWriteError: (destination, error) => failures.push(`${destination}: ${(error as Error).message}`),
    });

    await destinations.writeMessages([{ topic: "t", payload: "p" }]);
    await destinations.writePoints([numberedPoint(1)]);
    await destinations.writeEvents(events(1));
    await clock.advance(1000);
    series.down = false;
    client.failFor.delete("test");
    await clock.advance(2000);
    await destinations.stop();

    expect(failures).toEqual([
      "mqtt: broker down",
      "timeseriesdb: POST /write failed: no answer",
      "obs-platform:test: HTTP 503",
    ]);
  });

  it("counts events the platform refuses as rejected and does not post them again", async () => {
    const clock = createAsyncManualClock();
    const client = recordingClient();
    client.failFor.set("prod", 400);
    const destinations = createEventDestinations({
      maxBatchSize: 1000,
      observability: { client, accounts: [accounts[0]!] },
      clock,
      logger: recordingLogger(),
    });

    await destinations.writeEvents(events(2));
    await clock.advance(1000);
    client.failFor.delete("prod");
    await clock.advance(60_000);
    await destinations.stop();

    expect(client.posts).toEqual([]);
    expect(destinations.stats()["obs-platform:prod"]).toMatchObject({
      written: 0,
      rejected: 2,
      failedWrites: 1,
    });
  });
});

describe("createEventDestinations: stopping", () => {
  it("rejects stop with UnwrittenItemsError when a destination stays down past stopTimeoutMs", async () => {
    const clock = createAsyncManualClock();
    const series = recordingSeries();
    series.down = true;
    const destinations = createEventDestinations({
      maxBatchSize: 10,
      series,
      clock,
      logger: recordingLogger(),
      stopTimeoutMs: 3000,
    });
    await destinations.writePoints([numberedPoint(1), numberedPoint(2)]);

    const stopping = destinations.stop().catch((error: unknown) => error);
    await clock.advance(3000);
    const error = await stopping;

    expect(error).toBeInstanceOf(UnwrittenItemsError);
    expect((error as UnwrittenItemsError).unwritten).toBe(2);
    await expect(destinations.writePoints([numberedPoint(3)])).rejects.toThrow(/stopping/);
  });

  it("ends a stop at once when abandoned (the shutdown's deadline), the hung writes of every destination unawaited", async () => {
    const clock = createAsyncManualClock();
    const series = recordingSeries();
    series.write = () => new Promise<void>(() => {}); // a server that stopped answering
    const brokerClient = { publish: () => new Promise<void>(() => {}), close: async () => {} };
    const destinations = createEventDestinations({
      maxBatchSize: 10,
      series,
      broker: brokerClient,
      clock,
      logger: recordingLogger(),
      stopTimeoutMs: 5000,
    });
    await destinations.writePoints([numberedPoint(1), numberedPoint(2)]);
    void destinations.writeMessages([{ topic: "t", payload: "p" }]);

    const startedAt = clock.now();
    const stopping = destinations.stop().catch((error: unknown) => error);
    await clock.advance(100);
    destinations.abandon();
    await clock.settle();
    const error = await stopping;

    expect(clock.now() - startedAt).toBe(100);
    expect(error).toBeInstanceOf(AggregateError);
    const unwritten = (error as AggregateError).errors.map((each: UnwrittenItemsError) => [
      each.destination,
      each.unwritten,
      each.noun,
    ]);
    expect(unwritten).toEqual([
      ["timeseriesdb", 2, "points"],
      ["mqtt", 1, "messages"],
    ]);
  });
});

describe("declareDestinationMetrics", () => {
  it("declares steward_destination_write_errors_total once, summing failed writes per destination", () => {
    const specs: MetricSpec<string>[] = [];
    const registry: MetricsRegistry = {
      counter: (spec) => specs.push(spec as MetricSpec<string>),
      gauge: () => {},
    };
    const stats = (failedWrites: number): DestinationStats => ({
      buffered: 0,
      written: 0,
      failedWrites,
      dropped: 0,
      rejected: 0,
    });

    declareDestinationMetrics(registry, [
      () => ({ timeseriesdb: stats(2), mqtt: stats(1) }),
      () => ({ timeseriesdb: stats(3) }),
    ]);

    expect(specs.map((spec) => [spec.name, spec.labelNames])).toEqual([
      ["steward_destination_write_errors_total", ["destination"]],
    ]);
    expect([...specs[0]!.collect()]).toEqual([
      { labels: { destination: "timeseriesdb" }, value: 5 },
      { labels: { destination: "mqtt" }, value: 1 },
    ]);
  });
});
