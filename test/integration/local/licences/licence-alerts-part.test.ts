/**
 * The licence alert part as the agent starts it: its destinations subscribe to the monitor's
 * events, each shows on the status page under `alertDestinations` with its counts and last error,
 * and its outcomes land in the one `steward_alerts_total` the task alerts count into, whichever
 * declares it first. The webhooks go to a capture server on loopback.
 */
import { describe, expect, it } from "vitest";
import { createMemoryAppNameCache } from "../../../../core/adapters/local/memory-app-name-cache.ts";
import { createPromMetricsRegistry } from "../../../../core/adapters/prometheus/prom-metrics-registry.ts";
import { parseConfig } from "../../../../core/config/index.ts";
import { createLicenceExpiryAlerts } from "../../../../core/licences/license-expiry-alert.ts";
import { declareHttpRefusedMetric } from "../../../../core/monitoring/http-refused-metric.ts";
import { createStatusBoard } from "../../../../core/monitoring/status-board.ts";
import { declareRateLimitedMetric } from "../../../../core/ratelimit/rate-limited-metric.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { createAlertDispatcher } from "../../../../core/task-events/dispatch-alert.ts";
import { licenceAlertsPart } from "../../../../local/agent/licence-alerts.ts";
import { parsePrometheusText, sampleValue } from "../../../helpers/prometheus-text.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { captureServerForSuite } from "../../../helpers/suite-capture-server.ts";

const server = captureServerForSuite(200);

function config() {
  const parsed = parseConfig({
    Service: {
      platform: { host: "sense.example.com" },
      cert: { clientCert: "client.pem", clientCertKey: "client_key.pem", clientCertCA: "root.pem" },
      webhookNotification: {
        enable: true,
        timeoutSeconds: 5,
        qlikSenseServerLicenseMonitor: { webhooks: [{ webhookURL: `${server.url}/status` }] },
        qlikSenseServerLicenseExpiryAlert: { webhooks: [{ webhookURL: `${server.url}/expiry` }] },
      },
      licenseMonitor: {
        enable: true,
        serverLicense: {
          webhook: { enable: true, sendRecurring: { enable: true }, sendAlert: { enable: true } },
        },
      },
    },
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.config;
}

describe("the licence alert part", () => {
  it("shows each destination's counts and last error on the status page, in the shared alert metric", async () => {
    // Prepare: the task alerts' dispatcher declares the metric first, as when task events start first.
    const metrics = createPromMetricsRegistry();
    const logger = recordingLogger();
    createAlertDispatcher({ destinations: [], clock: systemClock, logger, metrics });
    const status = createStatusBoard({ version: "test", clock: systemClock });
    const events = createLicenceExpiryAlerts(logger);
    const part = await licenceAlertsPart.start({
      config: config(),
      logger,
      clock: systemClock,
      cwd: process.cwd(),
      metrics,
      rateLimited: declareRateLimitedMetric(metrics),
      httpRefused: declareHttpRefusedMetric(metrics),
      appNames: createMemoryAppNameCache(),
      status,
      healthProbes: [],
      configTree: {},
      logLevelOverride: undefined,
      licenceExpiryAlerts: events,
    });
    server.respondWith((request) => (request.path === "/expiry" ? 503 : 200));

    // Act
    const at = new Date().toISOString();
    await events.emitStatus({ expired: false, expiryDate: "2027-01-31", daysUntilExpiry: 12, at });
    await events.emit({
      kind: "expiring",
      expiryDate: "2027-01-31",
      daysUntilExpiry: 12,
      alertDaysBefore: 30,
      text: "Qlik Sense server license is about to expire in 12 days, on 2027-01-31",
      at,
    });
    const shown = status.document().alertDestinations;
    const scraped = parsePrometheusText(await metrics.metrics());
    await part.stop();
    await events.emit({
      kind: "expiring",
      expiryDate: "2027-01-31",
      daysUntilExpiry: 12,
      alertDaysBefore: 30,
      text: "after the stop",
      at,
    });

    // Assess
    expect(shown["webhook (serverLicenseStatus)"]).toMatchObject({ sent: 1, failed: 0 });
    expect(shown["webhook (serverLicenseExpiry)"]).toMatchObject({ sent: 0, failed: 1 });
    expect(JSON.stringify(shown["webhook (serverLicenseExpiry)"])).toMatch(/1 of 1 webhooks failed/);
    const total = (kind: string, outcome: string) =>
      sampleValue(scraped, "steward_alerts_total", { destination: "webhook", kind, outcome });
    expect(total("serverLicenseStatus", "sent")).toBe(1);
    expect(total("serverLicenseExpiry", "failed")).toBe(1);
    expect(logger.at("error").map((entry) => entry.message)).toEqual(["sending a licence alert failed"]);
    // Stopped, it has unsubscribed: the alert after the stop calls nothing.
    expect(server.requests.map((request) => request.path)).toEqual(["/status", "/expiry"]);
  });
});
