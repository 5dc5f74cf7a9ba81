/**
 * One platform poller of the agent (engine health, user sessions): on the periodic beat (first
 * round at start, overlapping rounds skipped with a WARN), a round asks every target — a monitored
 * server, or a server's virtual proxy — at most `maxConcurrent` at a time, so 200 servers never
 * become 200 simultaneous requests.
 * - An answer is turned into the destinations' points, broker messages and metric batches
 *   (`itemsOf`; after `answerTurn`, when given: a turn of the event loop of its own), handed to
 *   the destinations (each buffers and batches; a round's points go out in as few
 *   writes as `maxBatchSize` allows), and kept as the target's latest answer for the scrape
 *   endpoint's gauges. The gauges show the latest answers as of the last completed round
 *   (`latest()`, `onRound`), so they change once per round and can be rendered once per round.
 * - A failing target (unreachable, timeout, non-2xx, malformed answer) is counted, logged at
 *   WARN at most once a minute per target with the reason and Butler SOS's error type
 *   (`HEALTH_API`, `PROXY_API`), and its latest answer is forgotten (from the end of that round
 *   on), so the scrape endpoint never shows a dead server's old values as current. The other
 *   targets are polled as usual.
 * - When `ready` rejects (no call can be made: the client certificate file is gone), the round
 *   is skipped: no target is called or counted as failed, the latest answers are forgotten, and
 *   the skip is counted (`notReady`, rounds `outcome="not_ready"`); whoever makes `ready` reject
 *   logs the reason (once, not per round).
 * - At stop, a round in flight is abandoned: its calls get the round's aborted signal (`fetch`
 *   gives them up at once) and the targets still waiting for their turn are not called, so a
 *   platform that does not answer never holds up the shutdown.
 */

import { createConcurrencyLimit } from "../agent-destinations/index.ts";
import { createLogThrottle } from "../logging/log-throttle.ts";
import type {
  Clock,
  ErrorRecorder,
  Logger,
  MetricsRegistry,
  ObservabilityMetricBatch,
  Stoppable,
} from "../ports.ts";
import type { BrokerMessage } from "../shared/broker-message.ts";
import { describeError } from "../shared/describe-error.ts";
import type { Point } from "../shared/line-protocol.ts";
import { type PeriodicPoll, startPeriodicPoll } from "./periodic-poll.ts";

/** What one answer becomes for the destinations (empty lists for destinations switched off). */
export interface PollItems {
  readonly points: readonly Point[];
  readonly messages: readonly BrokerMessage[];
  readonly metrics: readonly ObservabilityMetricBatch[];
}

/** The destinations of a poller: the agent's destinations (present or absent as the config says). */
export interface PollDestinations {
  writePoints(points: readonly Point[]): Promise<void>;
  writeMessages(messages: readonly BrokerMessage[]): Promise<void>;
  writeMetrics(batches: readonly ObservabilityMetricBatch[]): Promise<void>;
}

export interface PlatformPollerOptions<T, A> {
  /** `health` or `sessions`: the label of this poller's metrics. */
  poll: string;
  /** One round, for log lines: "health round". */
  what: string;
  /** Butler SOS's error type for a failed call: `HEALTH_API`, `PROXY_API`. */
  errorType: string;
  targets: readonly T[];
  /** A target's unique key (server name, server + virtual proxy). */
  key(target: T): string;
  /** Log fields naming a target (server_name, host, virtual proxy). */
  describe(target: T): Readonly<Record<string, unknown>>;
  /** Calls the target; `signal` aborts when the poller stops, and the call should end then. */
  fetch(target: T, signal: AbortSignal): Promise<A>;
  /** Checked before each round; when it rejects, the round is skipped. */
  ready?: (() => Promise<void>) | undefined;
  itemsOf(target: T, answer: A, atMs: number): PollItems;
  destinations: PollDestinations;
  intervalMs: number;
  maxConcurrent: number;
  clock: Clock;
  logger: Logger;
  /** Declares `steward_platform_polls_total{poll,outcome}` and the round gauges. */
  metrics?: MetricsRegistry | undefined;
  /** Error tracking: each failed call is recorded as `errorType` with the target's `server_name`. */
  errors?: ErrorRecorder | undefined;
  /** Monotonic milliseconds for round durations (default: the clock). */
  elapsedMs?: (() => number) | undefined;
  /**
   * Waited for before each answer goes to the destinations (answer-turns.ts: one answer per turn
   * of the event loop); by default none.
   */
  answerTurn?: (() => Promise<void>) | undefined;
}

export interface LatestAnswer<T, A> {
  readonly target: T;
  readonly answer: A;
  /** Clock time of the answer. */
  readonly at: number;
}

export interface PlatformPollerStats {
  rounds: number;
  /** Beats skipped because the previous round was still running. */
  skipped: number;
  /** Rounds skipped because no call could be made (`ready` rejected). */
  notReady: number;
  /** Why the last round was skipped, while it is. */
  notReadyReason?: string;
  succeeded: number;
  failed: number;
  /** Duration of the last completed round, ms. */
  lastRoundMs: number | undefined;
  /** Per target key: the reason of its last failure, cleared by its next success. */
  lastErrors: Readonly<Record<string, string>>;
}

export interface PlatformPoller<T, A> extends Stoppable {
  /** The latest answer of every target whose last call succeeded, as of the last completed round. */
  latest(): Iterable<LatestAnswer<T, A>>;
  /** Calls `listener` after every completed round, once `latest()` shows that round's answers. */
  onRound(listener: () => void): void;
  stats(): PlatformPollerStats;
}

export async function startPlatformPoller<T, A>(
  options: PlatformPollerOptions<T, A>,
): Promise<PlatformPoller<T, A>> {
  const { targets, destinations, clock, logger } = options;
  const elapsed = options.elapsedMs ?? (() => clock.now());
  const throttle = createLogThrottle();
  const limit = createConcurrencyLimit(options.maxConcurrent);
  const latest = new Map<string, LatestAnswer<T, A>>();
  /** `latest` as of the last completed round: what `latest()` answers. */
  let lastRound: readonly LatestAnswer<T, A>[] = [];
  const roundListeners: (() => void)[] = [];
  const lastErrors = new Map<string, string>();
  const counts = { succeeded: 0, failed: 0, completedRounds: 0, notReady: 0 };
  let notReadyReason: string | undefined;
  let lastRoundMs: number | undefined;
  let poll: PeriodicPoll | undefined;

  async function pollTarget(target: T, signal: AbortSignal): Promise<void> {
    // Stopped while this target waited for its turn: not called (nor counted) at all.
    if (signal.aborted) return;
    const key = options.key(target);
    let answer: A;
    try {
      answer = await options.fetch(target, signal);
    } catch (error) {
      counts.failed += 1;
      latest.delete(key);
      const reason = describeError(error);
      lastErrors.set(key, reason);
      const fields = { ...options.describe(target), errorType: options.errorType, error: reason };
      if (poll?.stopping()) {
        logger.debug(`a ${options.what} call ended with shutdown`, fields);
        return;
      }
      options.errors?.record(options.errorType, String(options.describe(target).server_name ?? ""), error);
      const failures = throttle.admit(`failed:${key}`, clock.now());
      if (failures !== undefined)
        logger.warn(`polling failed; the next ${options.what} tries again`, { ...fields, failures });
      return;
    }
    if (options.answerTurn !== undefined) await options.answerTurn();
    const at = clock.now();
    counts.succeeded += 1;
    latest.set(key, { target, answer, at });
    if (lastErrors.delete(key)) logger.info("polling works again", options.describe(target));
    const out = options.itemsOf(target, answer, at);
    await Promise.all([
      out.points.length > 0 ? destinations.writePoints(out.points) : undefined,
      out.messages.length > 0 ? destinations.writeMessages(out.messages) : undefined,
      out.metrics.length > 0 ? destinations.writeMetrics(out.metrics) : undefined,
    ]);
  }

  /** False (and the round skipped) when `ready` rejects. */
  async function canCall(ready: () => Promise<void>): Promise<boolean> {
    try {
      await ready();
    } catch (error) {
      counts.notReady += 1;
      notReadyReason = describeError(error);
      latest.clear();
      if (lastRound.length > 0) {
        lastRound = [];
        for (const listener of roundListeners) listener();
      }
      logger.debug(`${options.what} skipped: no call can be made now`, { error: notReadyReason });
      return false;
    }
    notReadyReason = undefined;
    return true;
  }

  async function round(signal: AbortSignal): Promise<void> {
    if (options.ready !== undefined && !(await canCall(options.ready))) return;
    const started = elapsed();
    await Promise.all(targets.map((target) => limit.run(() => pollTarget(target, signal))));
    // An abandoned round is not a completed one: the gauges keep the last round's answers.
    if (signal.aborted) return;
    lastRoundMs = elapsed() - started;
    counts.completedRounds += 1;
    lastRound = [...latest.values()];
    for (const listener of roundListeners) listener();
    logger.verbose(`${options.what} done`, {
      targets: targets.length,
      failed: lastErrors.size,
      durationMs: Math.round(lastRoundMs),
    });
  }

  declareMetrics(options, () => ({
    ...counts,
    skipped: poll?.stats().skipped ?? 0,
    lastRoundMs,
  }));

  poll = await startPeriodicPoll({
    what: options.what,
    intervalMs: options.intervalMs,
    run: round,
    clock,
    logger,
    fields: { targets: targets.length },
  });
  const running = poll;

  return {
    latest: () => lastRound,
    onRound: (listener) => {
      roundListeners.push(listener);
    },
    stats: () => ({
      ...running.stats(),
      notReady: counts.notReady,
      ...(notReadyReason === undefined ? {} : { notReadyReason }),
      succeeded: counts.succeeded,
      failed: counts.failed,
      lastRoundMs,
      lastErrors: Object.fromEntries(lastErrors),
    }),
    stop: () => running.stop(),
  };
}

interface MetricCounts {
  succeeded: number;
  failed: number;
  completedRounds: number;
  notReady: number;
  skipped: number;
  lastRoundMs: number | undefined;
}

function declareMetrics<T, A>(options: PlatformPollerOptions<T, A>, read: () => MetricCounts): void {
  const registry = options.metrics;
  if (registry === undefined) return;
  const poll = options.poll;
  registry.counter({
    name: `steward_${poll}_polls_total`,
    help: `Calls of the ${poll} poller by outcome (succeeded, failed)`,
    labelNames: ["outcome"],
    collect: () => {
      const now = read();
      return [
        { labels: { outcome: "succeeded" }, value: now.succeeded },
        { labels: { outcome: "failed" }, value: now.failed },
      ];
    },
  });
  registry.counter({
    name: `steward_${poll}_rounds_total`,
    help: `Rounds of the ${poll} poller: completed, skipped while the previous one still ran, or not_ready (no call could be made)`,
    labelNames: ["outcome"],
    collect: () => {
      const now = read();
      return [
        { labels: { outcome: "completed" }, value: now.completedRounds },
        { labels: { outcome: "skipped" }, value: now.skipped },
        ...(options.ready === undefined ? [] : [{ labels: { outcome: "not_ready" }, value: now.notReady }]),
      ];
    },
  });
  registry.gauge({
    name: `steward_${poll}_round_duration_seconds`,
    help: `Duration of the ${poll} poller's last completed round, in seconds`,
    labelNames: [],
    collect: () => {
      const { lastRoundMs } = read();
      return lastRoundMs === undefined ? [] : [{ labels: {}, value: lastRoundMs / 1000 }];
    },
  });
}
