/**
 * The alerts part as the local process starts it: one set of clients and destinations for every
 * producer of alerts. The server licence's alerts it is handed go to the webhooks on a capture
 * server on loopback, each counted apart from the task alerts (`<destination> (<kind>)`) and in
 * the one `steward_alerts_total` the task alerts count into, whichever declares it first; and
 * stopping it closes the SMTP client, once, whichever producer used it.
 */
import { describe, expect, it } from "vitest";
import { createPromMetricsRegistry } from "../../../../core/adapters/prometheus/prom-metrics-registry.ts";
import { createSmtpClient } from "../../../../core/adapters/smtp/smtp-client.ts";
import { createAlertDispatcher, LICENCE_STATUS_KIND, totalsKey } from "../../../../core/alerts/index.ts";
import { parseConfig } from "../../../../core/config/index.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { startAlerts } from "../../../../functions/alerts/alerts-part.ts";
import { expiringLicence } from "../../../helpers/licence-alerts.ts";
import { parsePrometheusText, sampleValue } from "../../../helpers/prometheus-text.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { captureServerForSuite } from "../../../helpers/suite-capture-server.ts";

const server = captureServerForSuite(200);

function config(service: Record<string, unknown> = {}) {
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
      ...service,
    },
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.config;
}

describe("the alerts part", () => {
  it("counts the licence alerts apart from the task alerts, in the shared alert metric, and logs a failure", async () => {
    // Prepare: another dispatcher declares the metric first.
    const metrics = createPromMetricsRegistry();
    const logger = recordingLogger();
    createAlertDispatcher({ destinations: [], clock: systemClock, logger, metrics });
    const alerts = await startAlerts({ config: config(), logger, clock: systemClock, metrics });
    server.respondWith((request) => (request.path === "/expiry" ? 503 : 200));

    // Act
    const at = new Date().toISOString();
    const { dispatch } = alerts.dispatcher;
    await dispatch({
      kind: LICENCE_STATUS_KIND,
      expired: false,
      expiryDate: "2027-01-31",
      daysUntilExpiry: 12,
      at,
    });
    await dispatch(expiringLicence({ at }));
    const scraped = parsePrometheusText(await metrics.metrics());
    await alerts.stop();

    // Assess
    const totals = (kind: string) => alerts.dispatcher.totals(`webhook (${kind})`);
    expect(totalsKey("webhook", LICENCE_STATUS_KIND)).toBe("webhook (serverLicenseStatus)");
    expect(totals("serverLicenseStatus")).toMatchObject({ sent: 1, failed: 0 });
    expect(totals("serverLicenseExpiry")).toMatchObject({ sent: 0, failed: 1 });
    expect(JSON.stringify(totals("serverLicenseExpiry"))).toMatch(/1 of 1 webhooks failed/);
    expect(alerts.dispatcher.totals("webhook")).toMatchObject({ sent: 0, failed: 0 });
    const total = (kind: string, outcome: string) =>
      sampleValue(scraped, "steward_alerts_total", { destination: "webhook", kind, outcome });
    expect(total("serverLicenseStatus", "sent")).toBe(1);
    expect(total("serverLicenseExpiry", "failed")).toBe(1);
    expect(logger.at("error")).toEqual([
      expect.objectContaining({
        message: "sending an alert failed",
        fields: expect.objectContaining({ destination: "webhook", kind: "serverLicenseExpiry" }),
      }),
    ]);
    expect(server.requests.map((request) => request.path)).toEqual(["/status", "/expiry"]);
  });

  it("closes the SMTP client once when it stops, with task events and the licence monitor both on", async () => {
    let closed = 0;
    const alerts = await startAlerts({
      config: config({
        taskEvents: { enable: true },
        emailNotification: {
          enable: true,
          smtp: { host: "127.0.0.1", port: 25 },
          reloadTaskFailure: { enable: true, fromAddress: "a@example.com", recipients: ["b@example.com"] },
        },
      }),
      logger: recordingLogger(),
      clock: systemClock,
      emailClient: (smtp) => {
        const client = createSmtpClient(smtp);
        return {
          send: (email) => client.send(email),
          close() {
            closed += 1;
            client.close();
          },
        };
      },
    });
    expect(alerts.dispatcher.destinations.map((destination) => destination.name)).toContain("email");

    await alerts.stop();
    await alerts.stop();

    expect(closed).toBe(1);
  });
});
