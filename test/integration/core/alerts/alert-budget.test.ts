/**
 * The alert budget of a destination, with a manual clock, through the dispatcher and the real
 * webhook client to a capture server: alerts about fresh task ids (one each, as made-up
 * datagrams would carry) get past every per-task rate limit but not past the budget; those left
 * out are counted `over_budget` in `steward_alerts_total` and the status totals, with one WARN
 * per minute; the next minute has a new budget. The server licence's webhooks draw on the same
 * budget, and an alert left out by the budget leaves its task's rate limit untouched.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createWebhookClient } from "../../../../core/adapters/http-clients/webhook-client.ts";
import {
  createAlertBudget,
  createAlertDispatcher,
  LICENCE_EXPIRY_KIND,
  totalsKey,
} from "../../../../core/alerts/index.ts";
import { createWebhookDestination } from "../../../../core/alerts/webhook/webhook-destination.ts";
import { webhookSections } from "../../../helpers/alert-configs.ts";
import { expiringLicence } from "../../../helpers/licence-alerts.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";
import { createMemoryMetricsRegistry } from "../../../helpers/memory-metrics-registry.ts";
import { sampleValue } from "../../../helpers/prometheus-text.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { captureServerForSuite } from "../../../helpers/suite-capture-server.ts";
import { failedReloadAlert, LINKS } from "../../../helpers/task-alerts.ts";

const server = captureServerForSuite(200);

/** A webhook destination with a budget of `perMinute`, a 300 s rate limit per task, and its dispatcher. */
function budgeted(perMinute: number) {
  // 10 s into a minute of the clock: the budget's windows are the clock's minutes.
  const clock = createManualClock(Date.UTC(2026, 11, 5, 10, 0, 10));
  const logger = recordingLogger();
  const metrics = createMemoryMetricsRegistry();
  const budget = createAlertBudget({ limits: { webhook: perMinute }, clock, logger });
  const config = webhookSections(
    {
      enable: true,
      reloadTaskFailure: { rateLimit: 300, webhooks: [{ webhookURL: `${server.url}/hook` }] },
      qlikSenseServerLicenseExpiryAlert: {
        rateLimit: 0,
        webhooks: [{ webhookURL: `${server.url}/licence` }],
      },
    },
    { serverLicense: { webhook: { enable: true, sendAlert: { enable: true } } } },
  );
  const destination = createWebhookDestination(config, {
    client: createWebhookClient(),
    logger,
    view: { links: LINKS, hostName: "sense.example.com", version: "test" },
  });
  const dispatcher = createAlertDispatcher({ destinations: [destination], clock, logger, metrics, budget });
  const overBudget = () =>
    sampleValue(metrics.scrape(), "steward_alerts_total", {
      destination: "webhook",
      kind: "reloadTaskFailure",
      outcome: "over_budget",
    }) ?? 0;
  return { clock, logger, dispatcher, overBudget };
}

const freshTask = () => failedReloadAlert({ taskId: randomUUID() });

describe("alert budget per destination", () => {
  it("sends 3 of 5 alerts about fresh task ids in a minute with a budget of 3, counts 2 over_budget, warns once", async () => {
    const { dispatcher, logger, overBudget } = budgeted(3);

    const outcomes = [];
    for (let i = 0; i < 5; i += 1) outcomes.push((await dispatcher.dispatch(freshTask())).webhook);

    expect(outcomes).toEqual(["sent", "sent", "sent", "over_budget", "over_budget"]);
    expect(server.requests).toHaveLength(3);
    expect(overBudget()).toBe(2);
    expect(dispatcher.totals("webhook")).toMatchObject({ sent: 3, overBudget: 2, suppressed: 0, failed: 0 });
    expect(logger.at("warn")).toEqual([
      expect.objectContaining({
        message: expect.stringContaining("Alert budget used up"),
        fields: { destination: "webhook", maxAlertsPerMinute: 3, until: "2026-12-05T10:01:00.000Z" },
      }),
    ]);
  });

  it("gives the next minute a new budget, and warns again only when that one is used up", async () => {
    const { clock, dispatcher, logger } = budgeted(2);
    for (let i = 0; i < 3; i += 1) await dispatcher.dispatch(freshTask());
    clock.advance(50_000); // 10:01:00

    const next = [];
    for (let i = 0; i < 3; i += 1) next.push((await dispatcher.dispatch(freshTask())).webhook);

    expect(next).toEqual(["sent", "sent", "over_budget"]);
    expect(server.requests).toHaveLength(4);
    expect(logger.at("warn").map((entry) => entry.fields?.until)).toEqual([
      "2026-12-05T10:01:00.000Z",
      "2026-12-05T10:02:00.000Z",
    ]);
  });

  it("leaves the task's rate limit untouched when the budget leaves its alert out, and spends none on alerts the rate limit leaves out", async () => {
    const { clock, dispatcher } = budgeted(1);
    const first = failedReloadAlert({ taskId: randomUUID() });
    const second = failedReloadAlert({ taskId: randomUUID() });

    const outcomes = [
      (await dispatcher.dispatch(first)).webhook, // sent: the budget's one alert
      (await dispatcher.dispatch(second)).webhook, // over budget
    ];
    clock.advance(60_000);
    outcomes.push((await dispatcher.dispatch(first)).webhook); // suppressed by its task's rate limit
    outcomes.push((await dispatcher.dispatch(second)).webhook); // sent: its rate limit was never opened

    expect(outcomes).toEqual(["sent", "over_budget", "suppressed", "sent"]);
    expect(server.requests).toHaveLength(2);
  });

  it("makes the server licence's webhooks draw on the same budget as the task alerts'", async () => {
    const { dispatcher } = budgeted(2);
    for (let i = 0; i < 2; i += 1) await dispatcher.dispatch(freshTask());

    const { webhook: outcome } = await dispatcher.dispatch(
      expiringLicence({ at: "2026-12-05T10:00:10.000Z" }),
    );

    expect(outcome).toBe("over_budget");
    expect(dispatcher.totals(totalsKey("webhook", LICENCE_EXPIRY_KIND))).toMatchObject({
      overBudget: 1,
      sent: 0,
    });
    expect(server.requests.map((request) => request.path)).toEqual(["/hook", "/hook"]);
  });

  it("has no budget at 0: every alert about a fresh task goes", async () => {
    const { dispatcher } = budgeted(0);
    for (let i = 0; i < 5; i += 1) await dispatcher.dispatch(freshTask());
    expect(server.requests).toHaveLength(5);
  });
});
