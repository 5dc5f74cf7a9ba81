/**
 * The MetricsRegistry contract: every adapter passes this suite (prom-client, in-memory). Call
 * `describeMetricsRegistryContract` with a factory returning a fresh registry and a way to
 * scrape it (for prom-client: its text exposition, read back).
 */

import { describe, expect, it } from "vitest";
import type { MetricSample, MetricsRegistry } from "../../core/ports.ts";
import type { ScrapedMetric } from "../helpers/prometheus-text.ts";

export interface MetricsRegistryUnderTest {
  registry: MetricsRegistry;
  scrape(): Promise<ScrapedMetric[]>;
}

async function scrapeOne(
  subject: MetricsRegistryUnderTest,
  name: string,
): Promise<ScrapedMetric | undefined> {
  return (await subject.scrape()).find((metric) => metric.name === name);
}

export function describeMetricsRegistryContract(name: string, create: () => MetricsRegistryUnderTest): void {
  describe(`MetricsRegistry contract: ${name}`, () => {
    itPublishesEachKind(create);
    itCollectsWhenScraped(create);
    itKeepsDeclarationsApart(create);
  });
}

/** Counters, gauges and unlabelled metrics, with their help, type and samples as collected. */
function itPublishesEachKind(create: () => MetricsRegistryUnderTest): void {
  it("publishes a counter with its help, its type and the samples its collect returns", async () => {
    const subject = create();

    subject.registry.counter({
      name: "steward_test_messages_total",
      help: "Messages seen since start",
      labelNames: ["queue", "outcome"],
      collect: () => [
        { labels: { queue: "user_events", outcome: "received" }, value: 7 },
        { labels: { queue: "log_events", outcome: "received" }, value: 3 },
      ],
    });

    expect(await scrapeOne(subject, "steward_test_messages_total")).toEqual({
      name: "steward_test_messages_total",
      help: "Messages seen since start",
      type: "counter",
      samples: [
        { labels: { queue: "user_events", outcome: "received" }, value: 7 },
        { labels: { queue: "log_events", outcome: "received" }, value: 3 },
      ],
    });
  });

  it("publishes a gauge with fractional values", async () => {
    const subject = create();

    subject.registry.gauge({
      name: "steward_test_utilisation",
      help: "Utilisation in percent",
      labelNames: ["queue"],
      collect: () => [{ labels: { queue: "user_events" }, value: 12.5 }],
    });

    expect(await scrapeOne(subject, "steward_test_utilisation")).toEqual({
      name: "steward_test_utilisation",
      help: "Utilisation in percent",
      type: "gauge",
      samples: [{ labels: { queue: "user_events" }, value: 12.5 }],
    });
  });

  it("publishes a metric without labels", async () => {
    const subject = create();

    subject.registry.gauge({
      name: "steward_test_up",
      help: "Up",
      labelNames: [],
      collect: () => [{ labels: {}, value: 1 }],
    });

    expect((await scrapeOne(subject, "steward_test_up"))?.samples).toEqual([{ labels: {}, value: 1 }]);
  });

  it("keeps label values with quotes, backslashes and line breaks intact", async () => {
    const subject = create();
    const awkward = 'C:\\logs\\"new"\nline';

    subject.registry.counter({
      name: "steward_test_awkward_total",
      help: "Awkward labels",
      labelNames: ["path"],
      collect: () => [{ labels: { path: awkward }, value: 2 }],
    });

    expect((await scrapeOne(subject, "steward_test_awkward_total"))?.samples).toEqual([
      { labels: { path: awkward }, value: 2 },
    ]);
  });
}

/** Values are read when scraped: the latest collect is what a scraper sees. */
function itCollectsWhenScraped(create: () => MetricsRegistryUnderTest): void {
  it("reads the values at every scrape, never at declaration", async () => {
    const subject = create();
    let calls = 0;
    let total = 1;
    subject.registry.counter({
      name: "steward_test_reads_total",
      help: "Reads",
      labelNames: ["queue"],
      collect: () => {
        calls += 1;
        return [{ labels: { queue: "q" }, value: total }];
      },
    });
    const callsAfterDeclaring = calls;

    const first = await scrapeOne(subject, "steward_test_reads_total");
    total = 5;
    const second = await scrapeOne(subject, "steward_test_reads_total");

    expect(callsAfterDeclaring).toBe(0);
    expect(first?.samples[0]?.value).toBe(1);
    expect(second?.samples[0]?.value).toBe(5);
  });

  it("shows exactly the label sets of the latest collect", async () => {
    const subject = create();
    let samples: Array<MetricSample<"queue">> = [
      { labels: { queue: "a" }, value: 1 },
      { labels: { queue: "b" }, value: 2 },
    ];
    subject.registry.gauge({
      name: "steward_test_size",
      help: "Size",
      labelNames: ["queue"],
      collect: () => samples,
    });
    await subject.scrape();

    samples = [{ labels: { queue: "b" }, value: 4 }];
    const metric = await scrapeOne(subject, "steward_test_size");

    expect(metric?.samples).toEqual([{ labels: { queue: "b" }, value: 4 }]);
  });

  it("shows what collect returns after each change of a metric that signals its changes", async () => {
    const subject = create();
    let samples: Array<MetricSample<"server">> = [{ labels: { server: "a" }, value: 1 }];
    const listeners: (() => void)[] = [];
    subject.registry.gauge({
      name: "steward_test_round",
      help: "Changes once per round",
      labelNames: ["server"],
      collect: () => samples,
      onChange: (listener) => listeners.push(listener),
    });

    const before = await scrapeOne(subject, "steward_test_round");
    samples = [
      { labels: { server: "a" }, value: 2 },
      { labels: { server: "b" }, value: 3 },
    ];
    for (const listener of listeners) listener();
    const after = await scrapeOne(subject, "steward_test_round");
    samples = [];
    for (const listener of listeners) listener();
    const emptied = await scrapeOne(subject, "steward_test_round");

    expect(before?.samples).toEqual([{ labels: { server: "a" }, value: 1 }]);
    expect(after?.samples).toEqual([
      { labels: { server: "a" }, value: 2 },
      { labels: { server: "b" }, value: 3 },
    ]);
    expect(emptied?.samples).toEqual([]);
  });
}

/** One name is declared once per registry, and registries share nothing. */
function itKeepsDeclarationsApart(create: () => MetricsRegistryUnderTest): void {
  it("refuses a second declaration of the same name", () => {
    const subject = create();
    const spec = { name: "steward_test_twice_total", help: "Twice", labelNames: [], collect: () => [] };
    subject.registry.counter(spec);

    expect(() => subject.registry.counter(spec)).toThrow();
    expect(() => subject.registry.gauge(spec)).toThrow();
  });

  it("shares nothing between two registries", async () => {
    const one = create();
    const two = create();
    const declare = (subject: MetricsRegistryUnderTest, value: number) =>
      subject.registry.gauge({
        name: "steward_test_shared",
        help: "Shared?",
        labelNames: [],
        collect: () => [{ labels: {}, value }],
      });

    declare(one, 1);
    declare(two, 2);

    expect((await scrapeOne(one, "steward_test_shared"))?.samples).toEqual([{ labels: {}, value: 1 }]);
    expect((await scrapeOne(two, "steward_test_shared"))?.samples).toEqual([{ labels: {}, value: 2 }]);
  });
}
