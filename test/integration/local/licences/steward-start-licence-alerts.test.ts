/**
 * The server licence's expiry reaching the alert destinations as an operator runs it:
 * `steward simulate-platform --license-expires-in-days N` and `steward start` with the
 * configuration it writes, email to a real SMTP server, and Teams and the webhooks to a capture
 * server. The monitor runs every 2 seconds here, so a few runs pass: inside the alert window one
 * email, one Teams card and one expiry webhook call arrive (one a day by default), while the
 * recurring status webhook is called after every run; outside it only the status webhook is.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { type CaptureServer, startCaptureServer } from "../../../helpers/capture-server.ts";
import { until } from "../../../helpers/eventually.ts";
import { parsePrometheusText, sampleValue } from "../../../helpers/prometheus-text.ts";
import { onFreePorts, startSimulatorForTest } from "../../../helpers/simulator-for-test.ts";
import { type SmtpCapture, startSmtpCapture } from "../../../helpers/smtp-capture.ts";
import { spawnStewardForTest } from "../../../helpers/started-steward.ts";

let smtp: SmtpCapture;
let capture: CaptureServer;
const dirs: string[] = [];

beforeAll(async () => {
  [smtp, capture] = await Promise.all([startSmtpCapture(), startCaptureServer()]);
});
afterAll(async () => {
  await Promise.all([smtp?.stop(), capture?.stop()]);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The alert destinations an operator adds to the printed configuration. */
const destinations = () => ({
  emailNotification: {
    enable: true,
    smtp: { host: "127.0.0.1", port: smtp.port },
    serverLicenseExpiry: {
      enable: true,
      fromAddress: "steward@example.com",
      recipients: ["ops@example.com"],
    },
  },
  teamsNotification: {
    enable: true,
    serverLicenseExpiry: { enable: true, webhookURL: `${capture.url}/teams` },
  },
  webhookNotification: {
    enable: true,
    qlikSenseServerLicenseMonitor: { rateLimit: 0, webhooks: [{ webhookURL: `${capture.url}/status` }] },
    qlikSenseServerLicenseExpiryAlert: { webhooks: [{ webhookURL: `${capture.url}/expiry` }] },
  },
});

const calls = (path: string) => capture.requests.filter((request) => request.path === path);

/** Starts the simulated platform and Steward; answers the scrape port and what stops both. */
async function startWithLicenceExpiringIn(days: number) {
  const dir = mkdtempSync(join(tmpdir(), "steward-licence-alerts-"));
  dirs.push(dir);
  smtp.received.length = 0;
  capture.requests.length = 0;
  const { sim, config } = await startSimulatorForTest(
    ["--port", "0", "--generate-certs", "--license-expires-in-days", String(days)],
    dir,
  );
  const { scrapePort, uiPort } = await onFreePorts(config);
  config.Service.licenseMonitor.frequency = "every 2 seconds";
  config.Service.licenseMonitor.licenseRelease = { enable: false };
  config.Service.licenseMonitor.serverLicense = {
    webhook: { enable: true, sendRecurring: { enable: true }, sendAlert: { enable: true } },
  };
  Object.assign(config.Service, destinations());
  writeFileSync(join(dir, "steward.yaml"), stringify(config));
  const steward = spawnStewardForTest(["start", "--config", "steward.yaml"], { cwd: dir });
  await steward.waitFor(/steward ready/, 30_000);
  return {
    steward,
    scrapePort,
    uiPort,
    async stop() {
      steward.child.kill("SIGTERM");
      sim.child.kill("SIGINT");
      expect((await steward.exited()).code).toBe(0);
      expect((await sim.exited()).code).toBe(0);
    },
  };
}

async function alertsTotal(port: number, labels: Record<string, string>): Promise<number | undefined> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  return sampleValue(parsePrometheusText(text), "steward_alerts_total", labels);
}

describe("steward start: the server licence's expiry at the alert destinations", () => {
  it("inside the window: one email, one Teams card and one expiry webhook over three runs; the status webhook every run", async () => {
    // Prepare
    const started = await startWithLicenceExpiringIn(12);

    // Act
    await until(() => calls("/status").length >= 3, 20_000, 50);

    // Assess
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]?.envelopeTo).toEqual(["ops@example.com"]);
    expect(smtp.received[0]?.mail.subject).toMatch(
      /^Qlik Sense server licence expires in 1[12] days, on \d{4}-\d\d-\d\d$/,
    );
    expect(calls("/teams")).toHaveLength(1);
    expect(JSON.parse(calls("/teams")[0]?.body ?? "{}").attachments[0].contentType).toBe(
      "application/vnd.microsoft.card.adaptive",
    );
    expect(calls("/expiry")).toHaveLength(1);
    expect(JSON.parse(calls("/expiry")[0]?.body ?? "{}")).toMatchObject({
      event: "server license about to expire alert",
      licenseExpired: false,
    });
    expect(JSON.parse(calls("/status")[0]?.body ?? "{}")).toMatchObject({ event: "server license status" });
    const email = { destination: "email", kind: "serverLicenseExpiry" };
    expect(await alertsTotal(started.scrapePort, { ...email, outcome: "sent" })).toBe(1);
    expect(await alertsTotal(started.scrapePort, { ...email, outcome: "suppressed" })).toBeGreaterThanOrEqual(
      2,
    );
    // The status page counts the licence's alerts apart from the task alerts, per destination and kind.
    const status = (await (await fetch(`http://127.0.0.1:${started.uiPort}/status`)).json()) as {
      alertDestinations: Record<string, { sent: number; failed: number }>;
    };
    expect(status.alertDestinations["email (serverLicenseExpiry)"]).toMatchObject({ sent: 1, failed: 0 });
    expect(status.alertDestinations["webhook (serverLicenseExpiry)"]).toMatchObject({ sent: 1 });
    expect(status.alertDestinations["webhook (serverLicenseStatus)"]?.sent).toBeGreaterThanOrEqual(3);
    await started.stop();
  }, 90_000);

  it("outside the window: only the recurring status webhook, after every run", async () => {
    // Prepare
    const started = await startWithLicenceExpiringIn(90);

    // Act
    await until(() => calls("/status").length >= 2, 20_000, 50);

    // Assess
    expect(smtp.received).toHaveLength(0);
    expect(capture.requests.map((request) => request.path).every((path) => path === "/status")).toBe(true);
    expect(JSON.parse(calls("/status")[0]?.body ?? "{}")).toMatchObject({
      event: "server license status",
      licenseExpired: false,
      daysUntilExpiry: expect.any(Number),
    });
    await started.stop();
  }, 90_000);
});
