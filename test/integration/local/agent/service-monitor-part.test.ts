/**
 * The Windows service monitor end to end on Linux: the sc.exe adapter runs a stand-in that
 * replays recorded sc.exe outputs (test/helpers/sc-exe-stand-in.ts), changed by the test between
 * polls, and everything else is the local process's own: the alerts part with its SMTP and
 * webhook clients (to smtp-capture and a capture server), the shared time-series client (to
 * Debian's influxd) and the one broker connection (to mosquitto). The first reading alerts
 * nothing; a change is one email, one webhook call, one point and one message on the stopped
 * topic; failed readings are counted each time and logged once, never alerted.
 */
import mqtt from "mqtt";
import { describe, expect, it } from "vitest";
import { createScServiceStateReader } from "../../../../core/adapters/local/sc-service-state-reader.ts";
import { createPromMetricsRegistry } from "../../../../core/adapters/prometheus/prom-metrics-registry.ts";
import { parseConfig } from "../../../../core/config/index.ts";
import { startAlerts } from "../../../../functions/alerts/alerts-part.ts";
import { startAgentConnections } from "../../../../local/agent/agent-connections.ts";
import { startServiceMonitor } from "../../../../local/agent/service-monitor/service-monitor.ts";
import { brokerConnection } from "../../../../local/broker-connection.ts";
import { until } from "../../../helpers/eventually.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";
import { skipWithoutMosquitto, startMosquitto } from "../../../helpers/mosquitto.ts";
import { parsePrometheusText } from "../../../helpers/prometheus-text.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { scStandIn } from "../../../helpers/sc-exe-stand-in.ts";
import { startSmtpCapture } from "../../../helpers/smtp-capture.ts";
import { captureServerForSuite } from "../../../helpers/suite-capture-server.ts";
import { influxdForSuite } from "../../../helpers/suite-influxd.ts";

const { skip: noInfluxd, influxd } = influxdForSuite();
const noMosquitto = skipWithoutMosquitto();
const server = captureServerForSuite(200);
const DB = "steward_services";
const SERVICE = "QlikSenseRepositoryService";

function config(smtpPort: number, brokerPort: number) {
  const parsed = parseConfig({
    Service: {
      timeseriesdbConfig: {
        enable: true,
        host: "127.0.0.1",
        port: influxd.port,
        version: 1,
        v1Config: { dbName: DB },
      },
      mqttConfig: { enable: true, brokerHost: "127.0.0.1", brokerPort },
      emailNotification: {
        enable: true,
        smtp: { host: "127.0.0.1", port: smtpPort },
        serviceStopped: { enable: true, fromAddress: "steward@example.com", recipients: ["ops@example.com"] },
        serviceStarted: { enable: true, fromAddress: "steward@example.com", recipients: ["ops@example.com"] },
      },
      webhookNotification: {
        enable: true,
        serviceMonitor: { enable: true, webhooks: [{ webhookURL: `${server.url}/service` }] },
      },
      serviceMonitor: {
        enable: true,
        frequency: "every 30 seconds",
        monitor: [{ host: "qs-node1", services: [{ name: SERVICE, friendlyName: "Repository" }] }],
        timeseriesdb: { tag: { static: [{ name: "qs_env", value: "lab" }] } },
        sendToMQTT: { enable: true },
      },
    },
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.config;
}

/** The monitor with the process's alerts part, connections and broker connection, and a subscriber. */
async function startAll() {
  const smtp = await startSmtpCapture();
  const broker = await startMosquitto();
  const settings = config(smtp.port, broker.port);
  const subscriber = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`);
  const received: { topic: string; payload: Record<string, unknown> }[] = [];
  subscriber.on("message", (topic, payload) =>
    received.push({ topic, payload: JSON.parse(String(payload)) }),
  );
  await subscriber.subscribeAsync("qliksense/#");
  const clock = createManualClock(Date.UTC(2026, 11, 6, 7, 0, 0));
  const logger = recordingLogger();
  const metrics = createPromMetricsRegistry();
  const connection = brokerConnection(settings, logger, process.cwd());
  const brokerPart = await connection?.part.start();
  const connections = await startAgentConnections({
    config: settings,
    logger,
    metrics,
    cwd: process.cwd(),
    clock,
    broker: connection?.client,
  });
  const alerts = await startAlerts({ config: settings, logger, clock });
  const sc = scStandIn();
  sc.answer("qc", "*", "qc-auto-start.txt");
  sc.answer("query", SERVICE, "query-running.txt");
  const monitor = await startServiceMonitor({
    config: settings,
    logger,
    clock,
    metrics,
    connections,
    reader: createScServiceStateReader({ timeoutMs: 5000, command: sc.command }),
    alerts: alerts.dispatcher.dispatch,
  });
  const pollAgain = async () => {
    const polls = monitor.status().polls;
    clock.advance(30_000);
    await until(() => monitor.status().polls > polls, 10_000);
  };
  const stopAll = async () => {
    await monitor.stop();
    await connections.stop();
    await alerts.stop();
    await brokerPart?.stop();
    await subscriber.endAsync();
    await broker.stop();
    await smtp.stop();
  };
  return { sc, monitor, smtp, received, logger, metrics, pollAgain, stopAll };
}

async function points() {
  const answer = await influxd.query(
    `SELECT "state_text", "qs_env", "friendly_name" FROM "win_service_state"`,
    DB,
  );
  return (answer.results[0]?.series?.[0]?.values ?? []).map((row) => row.slice(1));
}

describe.skipIf(noInfluxd || noMosquitto)("the Windows service monitor part", () => {
  it("alerts nothing at the first reading, then a change once to each destination; failed readings are counted and logged once", async () => {
    const run = await startAll();
    try {
      await until(() => run.monitor.status().polls >= 1, 10_000);
      expect(run.smtp.received).toEqual([]);
      expect(server.requests).toEqual([]);

      run.sc.answer("query", SERVICE, "query-stopped.txt");
      await run.pollAgain();
      run.sc.answer("query", SERVICE, "query-unreachable-1722.txt", 1722);
      await run.pollAgain();
      await run.pollAgain();

      const status = run.monitor.status();
      expect(status.services[0]).toMatchObject({
        host: "qs-node1",
        service: SERVICE,
        friendlyName: "Repository",
        state: "STOPPED",
        stateNum: 1,
        lastError: { failure: "unreachable", reason: expect.stringContaining("FAILED 1722") },
      });
      const scraped = parsePrometheusText(await run.metrics.metrics());
      const sample = (name: string) => scraped.find((metric) => metric.name === name)?.samples;
      expect(sample("steward_windows_service_state")).toEqual([
        { labels: { host: "qs-node1", service: SERVICE }, value: 1 },
      ]);
      expect(sample("steward_windows_service_changes_total")).toEqual([
        { labels: { host: "qs-node1", service: SERVICE, change: "stopped" }, value: 1 },
      ]);
      expect(sample("steward_windows_service_failed_readings_total")).toEqual([
        { labels: { host: "qs-node1", service: SERVICE, reason: "unreachable" }, value: 2 },
      ]);
      const warnings = run.logger.entries.filter((entry) => entry.message.includes("could not be read"));
      expect(warnings).toHaveLength(1);
    } finally {
      await run.stopAll();
    }

    expect(run.smtp.received).toHaveLength(1);
    expect(run.smtp.received[0]?.envelopeTo).toEqual(["ops@example.com"]);
    expect(run.smtp.received[0]?.mail.subject).toBe(
      'Windows service stopped on host qs-node1: "Qlik Sense Service Dispatcher"',
    );
    expect(server.requests.map((request) => [request.path, JSON.parse(request.body).event])).toEqual([
      ["/service", "Windows service stopped"],
    ]);
    expect(await points()).toEqual([
      ["RUNNING", "lab", "Repository"],
      ["STOPPED", "lab", "Repository"],
    ]);
    const topics = run.received.map((message) => message.topic);
    expect(topics).toEqual([
      `qliksense/service_status/qs-node1/${SERVICE}`,
      `qliksense/service_stopped/qs-node1/${SERVICE}`,
      `qliksense/service_status/qs-node1/${SERVICE}`,
    ]);
    expect(run.received[1]?.payload).toMatchObject({
      serviceHost: "qs-node1",
      serviceName: SERVICE,
      serviceFriendlyName: "Repository",
      serviceStatus: "STOPPED",
      servicePrevStatus: "RUNNING",
      serviceStatusChanged: true,
    });
  });

  it("alerts a service that stopped while its host could not be read once the host answers again", async () => {
    const run = await startAll();
    try {
      await until(() => run.monitor.status().polls >= 1, 10_000);
      run.sc.answer("query", SERVICE, "query-unreachable-1722.txt", 1722);
      await run.pollAgain();
      expect(run.monitor.status().services[0]?.state).toBe("RUNNING");
      run.sc.answer("query", SERVICE, "query-stopped.txt");
      await run.pollAgain();

      expect(run.monitor.status().services[0]).toMatchObject({ state: "STOPPED", lastError: undefined });
      expect(run.logger.entries.map((entry) => entry.message)).toContain(
        "a watched Windows service can be read again",
      );
    } finally {
      await run.stopAll();
    }
    expect(run.smtp.received.map((email) => email.mail.subject)).toEqual([
      'Windows service stopped on host qs-node1: "Qlik Sense Service Dispatcher"',
    ]);
  });
});
