import { describe, expect, it } from "vitest";
import { createAlertDispatcher } from "../../../../core/alerts/dispatch.ts";
import { type AlertDestination, AlertSendError } from "../../../../core/alerts/types.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";
import { createMemoryMetricsRegistry } from "../../../helpers/memory-metrics-registry.ts";
import { sampleValue } from "../../../helpers/prometheus-text.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { failedAlert } from "../../../helpers/task-alert-fixture.ts";

function destination(name: string, send: AlertDestination["send"], handles = () => true): AlertDestination {
  return { name, handles, send };
}

const sent: AlertDestination["send"] = async () => ({ outcome: "sent", messages: 1 });
const broken: AlertDestination["send"] = async () => {
  throw new AlertSendError("SMTP 554 rejected", { cause: new Error("554") });
};

function dispatcherOf(destinations: AlertDestination[]) {
  const clock = createManualClock();
  const logger = recordingLogger();
  const metrics = createMemoryMetricsRegistry();
  return {
    dispatcher: createAlertDispatcher({ destinations, clock, logger, metrics }),
    clock,
    logger,
    metrics,
  };
}

describe("alert dispatch: every destination that handles the kind", () => {
  it("sends to each in parallel and answers each destination's outcome", async () => {
    let running = 0;
    let most = 0;
    const slow: AlertDestination["send"] = async () => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 20));
      running -= 1;
      return { outcome: "sent", messages: 1 };
    };
    const { dispatcher } = dispatcherOf([destination("a", slow), destination("b", slow)]);
    await expect(dispatcher.dispatch(failedAlert())).resolves.toEqual({ a: "sent", b: "sent" });
    expect(most).toBe(2);
  });

  it("leaves out a destination that does not handle the kind", async () => {
    const { dispatcher } = dispatcherOf([
      destination("mqtt", sent, () => false),
      destination("timeseriesdb", sent),
    ]);
    await expect(dispatcher.dispatch(failedAlert())).resolves.toEqual({ timeseriesdb: "sent" });
  });

  it("counts skipped and suppressed answers", async () => {
    const { dispatcher, metrics } = dispatcherOf([
      destination("email", async () => ({ outcome: "skipped", reason: "no recipients" })),
      destination("teams", async () => ({ outcome: "suppressed", reason: "rate limit" })),
    ]);
    await dispatcher.dispatch(failedAlert());
    const scraped = metrics.scrape();
    expect(
      sampleValue(scraped, "steward_alerts_total", {
        destination: "email",
        kind: "reloadTaskFailure",
        outcome: "skipped",
      }),
    ).toBe(1);
    expect(
      sampleValue(scraped, "steward_alerts_total", {
        destination: "teams",
        kind: "reloadTaskFailure",
        outcome: "suppressed",
      }),
    ).toBe(1);
  });
});

describe("alert dispatch: a destination that fails", () => {
  it("does not hold up the others, and is counted failed with its last error", async () => {
    const { dispatcher, metrics } = dispatcherOf([destination("email", broken), destination("mqtt", sent)]);
    await expect(dispatcher.dispatch(failedAlert())).resolves.toEqual({ email: "failed", mqtt: "sent" });
    expect(dispatcher.totals("email")).toMatchObject({
      failed: 1,
      sent: 0,
      lastError: { message: expect.stringContaining("SMTP 554") },
    });
    expect(dispatcher.totals("mqtt")).toMatchObject({ sent: 1, failed: 0 });
    expect(
      sampleValue(metrics.scrape(), "steward_alerts_total", {
        destination: "email",
        kind: "reloadTaskFailure",
        outcome: "failed",
      }),
    ).toBe(1);
  });

  it("is logged at ERROR at most once a minute, with the failures since the last line", async () => {
    const { dispatcher, logger, clock } = dispatcherOf([destination("email", broken)]);
    for (let i = 0; i < 5; i += 1) await dispatcher.dispatch(failedAlert());
    clock.advance(60_000);
    await dispatcher.dispatch(failedAlert());
    const errors = logger.at("error");
    expect(errors).toHaveLength(2);
    expect(errors[1]?.fields).toMatchObject({ destination: "email", failuresSinceLastLine: 5 });
  });

  it("counts an answer that is not a send result as failed", async () => {
    const odd = (async () => ({ outcome: "maybe" })) as unknown as AlertDestination["send"];
    const { dispatcher } = dispatcherOf([destination("webhook", odd)]);
    await expect(dispatcher.dispatch(failedAlert())).resolves.toEqual({ webhook: "failed" });
  });
});
