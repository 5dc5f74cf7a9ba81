/**
 * The server licence's alert destinations (email, Teams, Slack, webhooks) as an agent part: on
 * when the licence monitor reads the server licence, started before the monitor so that its
 * first run (at start) already reaches them, and on its own, so that the licence monitor works
 * without the task-event part. Each enabled destination subscribes to the monitor's expiry
 * alerts (or, for the recurring status webhook, to every run's status); its counts and last
 * error show on the status page under `alertDestinations` as `<destination> (<kind>)`.
 */
import { readFile } from "node:fs/promises";
import { createAlertPoster } from "../../core/adapters/http-clients/alert-poster.ts";
import { createWebhookCaller } from "../../core/adapters/http-clients/webhook-caller.ts";
import { createSmtpSender } from "../../core/adapters/smtp/smtp-client.ts";
import { buildLicenceDestinations } from "../../core/alerts/licence/licence-destinations.ts";
import { createLicenceDispatch } from "../../core/alerts/licence/licence-dispatch.ts";
import { alertBudgetOf, type PlainAgentPart } from "./agent-part.ts";

export const licenceAlertsPart: PlainAgentPart = {
  name: "licence-alerts",
  enabled: (config) => config.licenseMonitor.enable && config.licenseMonitor.serverLicense.enable,
  async start(deps) {
    const events = deps.licenceExpiryAlerts;
    const logger = deps.logger.child("licenses");
    const destinations = buildLicenceDestinations(deps.config, {
      logger,
      emailSender: (smtp) => createSmtpSender(smtp, { logger }),
      poster: createAlertPoster(),
      webhookCaller: createWebhookCaller(),
      readTemplate: (path) => readFile(path, "utf8"),
      budget: alertBudgetOf(deps),
    });
    const dispatch = createLicenceDispatch({ clock: deps.clock, logger, metrics: deps.metrics });
    const unsubscribe: (() => void)[] = [];
    if (events !== undefined && destinations.alerts.length > 0)
      unsubscribe.push(
        events.subscribe(async (alert) => void (await dispatch.send(destinations.alerts, alert))),
      );
    if (events !== undefined && destinations.statuses.length > 0)
      unsubscribe.push(
        events.subscribeStatus(async (status) => void (await dispatch.send(destinations.statuses, status))),
      );
    for (const destination of [...destinations.alerts, ...destinations.statuses])
      deps.status.set("alertDestinations", `${destination.name} (${destination.kind})`, () =>
        dispatch.totals(destination),
      );
    return {
      async stop() {
        for (const stop of unsubscribe) stop();
        destinations.close();
      },
    };
  },
};
