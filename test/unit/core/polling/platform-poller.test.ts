import { describe, expect, it } from "vitest";
import { type PollDestinations, startPlatformPoller } from "../../../../core/polling/platform-poller.ts";
import type { ObservabilityMetricBatch } from "../../../../core/ports.ts";
import type { BrokerMessage } from "../../../../core/shared/broker-message.ts";
import type { Point } from "../../../../core/shared/line-protocol.ts";
import { integerField } from "../../../../core/shared/line-protocol.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";
import { createMemoryMetricsRegistry } from "../../../helpers/memory-metrics-registry.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

interface Target {
  name: string;
}

function recordingDestinations() {
  const received = {
    points: [] as Point[],
    messages: [] as BrokerMessage[],
    metrics: [] as ObservabilityMetricBatch[],
  };
  const destinations: PollDestinations = {
    writePoints: async (points) => {
      received.points.push(...points);
    },
    writeMessages: async (messages) => {
      received.messages.push(...messages);
    },
    writeMetrics: async (batches) => {
      received.metrics.push(...batches);
    },
  };
  return { destinations, received };
}

const flush = async () => {
  for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

function poller(
  targets: Target[],
  fetch: (target: Target, signal: AbortSignal) => Promise<number>,
  extra: {
    maxConcurrent?: number;
    errors?: { record(type: string, server: string): void };
    answerTurn?: () => Promise<void>;
  } = {},
) {
  const clock = createManualClock();
  const logger = recordingLogger();
  const metrics = createMemoryMetricsRegistry();
  const { destinations, received } = recordingDestinations();
  const started = startPlatformPoller<Target, number>({
    poll: "health",
    what: "health round",
    errorType: "HEALTH_API",
    targets,
    key: (target) => target.name,
    describe: (target) => ({ server_name: target.name }),
    fetch,
    itemsOf: (target, answer, at) => ({
      points: [
        {
          measurement: "m",
          tags: { server: target.name },
          fields: { v: integerField(answer) },
          timestampMs: at,
        },
      ],
      messages: [{ topic: `t/${target.name}`, payload: String(answer) }],
      metrics: [{ timestamp: at, intervalMs: 5000, attributes: {}, metrics: [{ name: "v", value: answer }] }],
    }),
    destinations,
    intervalMs: 5000,
    maxConcurrent: extra.maxConcurrent ?? 10,
    clock,
    logger,
    metrics,
    errors: extra.errors,
    answerTurn: extra.answerTurn,
  });
  return { started, clock, logger, metrics, received };
}

describe("platform poller: polling and handing answers on", () => {
  it("polls every target at start and hands each answer to every destination", async () => {
    const { started, received } = poller(
      [{ name: "a" }, { name: "b" }],
      async (target) => target.name.length,
    );
    const running = await started;
    await flush();
    expect(received.points.map((point) => point.tags.server).sort()).toEqual(["a", "b"]);
    expect(received.messages.map((message) => message.topic).sort()).toEqual(["t/a", "t/b"]);
    expect(received.metrics).toHaveLength(2);
    expect([...running.latest()].map((entry) => entry.target.name).sort()).toEqual(["a", "b"]);
    await running.stop();
  });

  it("hands an answer to the destinations only once its answer turn came", async () => {
    // Prepare: turns granted by the test, one at a time.
    const granted: (() => void)[] = [];
    const { started, received } = poller([{ name: "a" }, { name: "b" }], async () => 1, {
      answerTurn: () => new Promise<void>((resolve) => granted.push(resolve)),
    });
    const running = await started;

    // Act
    await flush();
    const beforeTurns = received.points.length;
    granted.shift()?.();
    await flush();
    const afterOneTurn = received.points.length;
    granted.shift()?.();
    await flush();

    // Assess
    expect(beforeTurns).toBe(0);
    expect(afterOneTurn).toBe(1);
    expect(received.points).toHaveLength(2);
    await running.stop();
  });

  it("never runs more than maxConcurrent calls at once", async () => {
    let active = 0;
    let peak = 0;
    const pending: (() => void)[] = [];
    const targets = Array.from({ length: 12 }, (_, i) => ({ name: `s${i}` }));
    const { started } = poller(
      targets,
      async () => {
        active += 1;
        peak = Math.max(peak, active);
        await new Promise<void>((resolve) => pending.push(resolve));
        active -= 1;
        return 1;
      },
      { maxConcurrent: 3 },
    );
    const running = await started;
    let calls = 0;
    while (pending.length > 0 || calls < 12) {
      await flush();
      const next = pending.shift();
      if (next === undefined) break;
      calls += 1;
      next();
    }
    await flush();
    expect(peak).toBe(3);
    expect(calls).toBe(12);
    expect(running.stats().succeeded).toBe(12);
    await running.stop();
  });

  it("skips a beat while a round still runs", async () => {
    const pending: (() => void)[] = [];
    const { started, clock, logger } = poller([{ name: "slow" }], async () => {
      await new Promise<void>((resolve) => pending.push(resolve));
      return 1;
    });
    const running = await started;
    clock.advance(5000);
    clock.advance(5000);
    expect(running.stats()).toMatchObject({ rounds: 1, skipped: 2 });
    expect(logger.at("warn")[0]?.message).toContain("previous health round is still running");
    for (const resolve of pending.splice(0)) resolve();
    await flush();
    clock.advance(5000);
    expect(running.stats().rounds).toBe(2);
    for (const resolve of pending.splice(0)) resolve();
    await running.stop();
  });

  it("shows the answers of the last completed round in latest(), and says when a round completed", async () => {
    const pending: (() => void)[] = [];
    let value = 1;
    const { started, clock } = poller([{ name: "a" }, { name: "b" }], async (target) => {
      if (target.name === "b") await new Promise<void>((resolve) => pending.push(resolve));
      return value;
    });
    const running = await started;
    let rounds = 0;
    running.onRound(() => {
      rounds += 1;
    });
    const answers = () => [...running.latest()].map((entry) => `${entry.target.name}=${entry.answer}`).sort();

    await flush();
    const whileFirstRoundRuns = answers();
    for (const resolve of pending.splice(0)) resolve();
    await flush();
    const afterFirstRound = answers();
    value = 2;
    clock.advance(5000);
    await flush();
    const whileSecondRoundRuns = answers();
    for (const resolve of pending.splice(0)) resolve();
    await flush();

    expect(whileFirstRoundRuns).toEqual([]);
    expect(afterFirstRound).toEqual(["a=1", "b=1"]);
    expect(whileSecondRoundRuns).toEqual(["a=1", "b=1"]);
    expect(answers()).toEqual(["a=2", "b=2"]);
    expect(rounds).toBe(2);
    await running.stop();
  });
});

describe("platform poller: failures and stopping", () => {
  it("records each failed call with its error type and server name (error tracking)", async () => {
    const recorded: string[] = [];
    const { started } = poller(
      [{ name: "sense1" }, { name: "sense2" }],
      async (target) => {
        if (target.name === "sense2") throw new Error("unreachable");
        return 1;
      },
      { errors: { record: (type, server) => recorded.push(`${type} ${server}`) } },
    );
    const running = await started;
    await flush();
    expect(recorded).toEqual(["HEALTH_API sense2"]);
    await running.stop();
  });

  it("at stop gives up the round in flight: its calls are aborted, the targets still waiting are not called", async () => {
    const called: string[] = [];
    const signals: AbortSignal[] = [];
    const targets = Array.from({ length: 5 }, (_, i) => ({ name: `s${i}` }));
    const { started, logger } = poller(
      targets,
      (target, signal?: AbortSignal) => {
        called.push(target.name);
        if (signal !== undefined) signals.push(signal);
        // A server that never answers: the call ends only when it is given up.
        return new Promise<number>((_, reject) =>
          signal?.addEventListener("abort", () => reject(new Error("given up"))),
        );
      },
      { maxConcurrent: 2 },
    );
    const running = await started;
    await flush();

    const outcome = await Promise.race([
      running.stop().then(() => "stopped"),
      flush().then(() => "still waiting"),
    ]);
    await flush();

    expect(outcome).toBe("stopped");
    expect(called).toEqual(["s0", "s1"]);
    expect(signals.map((signal) => signal.aborted)).toEqual([true, true]);
    // Given up, not completed: the gauges keep the answers of the last completed round.
    expect(running.stats().lastRoundMs).toBeUndefined();
    expect(logger.at("warn")).toEqual([]);
  });

  it("a failing target is counted, logged once a minute and forgotten; the others are polled", async () => {
    let bDown = true;
    const { started, clock, logger, metrics } = poller(
      [{ name: "a" }, { name: "b" }, { name: "c" }],
      async (target) => {
        if (target.name === "b" && bDown) throw new Error("connect ECONNREFUSED 127.0.0.1:4747");
        return 7;
      },
    );
    const running = await started;
    await flush();
    clock.advance(5000);
    await flush();
    expect([...running.latest()].map((entry) => entry.target.name).sort()).toEqual(["a", "c"]);
    expect(running.stats()).toMatchObject({
      succeeded: 4,
      failed: 2,
      lastErrors: { b: expect.stringContaining("ECONNREFUSED") },
    });
    const warnings = logger.at("warn");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.fields).toMatchObject({ server_name: "b", errorType: "HEALTH_API" });

    bDown = false;
    clock.advance(5000);
    await flush();
    expect([...running.latest()].map((entry) => entry.target.name).sort()).toEqual(["a", "b", "c"]);
    expect(running.stats().lastErrors).toEqual({});
    expect(logger.at("info").some((entry) => entry.message === "polling works again")).toBe(true);

    const polls = metrics.scrape().find((metric) => metric.name === "steward_health_polls_total");
    expect(polls?.samples).toEqual([
      { labels: { outcome: "succeeded" }, value: 7 },
      { labels: { outcome: "failed" }, value: 2 },
    ]);
    const rounds = metrics.scrape().find((metric) => metric.name === "steward_health_rounds_total");
    expect(rounds?.samples).toEqual([
      { labels: { outcome: "completed" }, value: 3 },
      { labels: { outcome: "skipped" }, value: 0 },
    ]);
    expect(
      metrics.scrape().find((metric) => metric.name === "steward_health_round_duration_seconds")?.samples,
    ).toHaveLength(1);
    await running.stop();
  });
});
