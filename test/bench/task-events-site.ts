/**
 * The site the reload-task benchmark runs Steward in: the simulated platform over mutual TLS
 * (the repository Steward looks each run up in), a real SMTP server, a capture server standing in
 * for Teams and a webhook receiver, and, when Debian has them, influxd and mosquitto with a
 * subscriber counting what arrives. `startSteward` runs the real `steward start` in a directory of
 * its own with every destination of a failed reload on, the message destinations limited to one
 * alert per task every `rateLimitSeconds` (0: no limit).
 *
 * Each run's script log can be downloaded only SCRIPT_LOG_DELAY_MS after the run is recorded (just
 * before its datagram is sent), as the real platform's download answers 404 for a moment after a
 * run ends: a run read at once waits for its log as it would on a real site.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import mqtt from "mqtt";
import { startTestPlatform, type TestPlatform } from "../fixtures/platform/test-platform.ts";
import { type CaptureServer, startCaptureServer } from "../helpers/capture-server.ts";
import { type Influxd, influxdAvailable, startInfluxd } from "../helpers/influxd.ts";
import { type Mosquitto, mosquittoAvailable, startMosquitto } from "../helpers/mosquitto.ts";
import { parsePrometheusText, type ScrapedMetric } from "../helpers/prometheus-text.ts";
import { type SmtpCapture, startSmtpCapture } from "../helpers/smtp-capture.ts";
import { type StewardProcess, spawnSteward } from "../helpers/steward-process.ts";
import {
  freeTaskEventPorts,
  type TaskEventPorts,
  writeTaskEventsConfig,
} from "../helpers/task-events-steward.ts";

/** Who each failed-reload email goes to: two addresses, so a task's window covers both. */
export const RECIPIENTS = ["ops@example.com", "oncall@example.com"];

/** How long a run's log stays out of reach: the platform's pace that the download's waits are set for. */
export const SCRIPT_LOG_DELAY_MS = 500;

export interface TaskEventSite {
  readonly platform: TestPlatform;
  readonly smtp: SmtpCapture;
  /** Teams cards arrive on /teams, webhook calls on /hook. */
  readonly capture: CaptureServer;
  readonly influxd: Influxd | undefined;
  readonly broker: Mosquitto | undefined;
  /** MQTT messages received on qliksense/# since the last `forget`. */
  mqttMessages(): number;
  /** Points in `reload_task_failed` of `database`. */
  points(database: string): Promise<number>;
  /** Forgets what the receivers got. */
  forget(): void;
  stop(): Promise<void>;
}

export interface RunningSteward {
  readonly process: StewardProcess;
  readonly pid: number;
  readonly ports: TaskEventPorts;
  metrics(): Promise<ScrapedMetric[]>;
  stop(): Promise<void>;
}

export async function startTaskEventSite(): Promise<TaskEventSite> {
  const [platform, smtp, capture, influxd, broker] = await Promise.all([
    startTestPlatform(),
    startSmtpCapture(),
    startCaptureServer(),
    influxdAvailable ? startInfluxd() : undefined,
    mosquittoAvailable ? startMosquitto() : undefined,
  ]);
  platform.repository.taskEvents.scriptLogDelayMs = SCRIPT_LOG_DELAY_MS;
  let received = 0;
  const subscriber =
    broker === undefined ? undefined : await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`);
  subscriber?.on("message", () => {
    received += 1;
  });
  await subscriber?.subscribeAsync("qliksense/#");
  return {
    platform,
    smtp,
    capture,
    influxd,
    broker,
    mqttMessages: () => received,
    async points(database) {
      const answer = await influxd?.query(`SELECT count("execution_id") FROM "reload_task_failed"`, database);
      return Number(answer?.results[0]?.series?.[0]?.values[0]?.[1] ?? 0);
    },
    forget() {
      received = 0;
      smtp.received.length = 0;
      capture.requests.length = 0;
    },
    async stop() {
      await subscriber?.endAsync();
      await Promise.all([platform.stop(), smtp.stop(), capture.stop(), influxd?.close(), broker?.stop()]);
    },
  };
}

/**
 * Every destination of a failed reload, switched on as an operator would; without rate limits
 * (0), without the budget of alerts per minute too, so that every alert of the burst is sent.
 */
function alertSections(site: TaskEventSite, rateLimitSeconds: number, database: string) {
  const hook = { description: "ops", webhookURL: `${site.capture.url}/hook` };
  const budget = rateLimitSeconds === 0 ? { maxAlertsPerMinute: 0 } : {};
  return {
    ...(site.influxd && {
      timeseriesdbConfig: {
        enable: true,
        version: 1,
        host: "127.0.0.1",
        port: site.influxd.port,
        v1Config: { dbName: database },
      },
    }),
    ...(site.broker && {
      mqttConfig: { enable: true, brokerHost: "127.0.0.1", brokerPort: site.broker.port },
    }),
    emailNotification: {
      enable: true,
      ...budget,
      smtp: { host: "127.0.0.1", port: site.smtp.port },
      reloadTaskFailure: {
        enable: true,
        rateLimit: rateLimitSeconds,
        fromAddress: "steward@example.com",
        recipients: RECIPIENTS,
      },
    },
    teamsNotification: {
      enable: true,
      ...budget,
      reloadTaskFailure: {
        enable: true,
        rateLimit: rateLimitSeconds,
        webhookURL: `${site.capture.url}/teams`,
      },
    },
    webhookNotification: {
      enable: true,
      ...budget,
      reloadTaskFailure: { rateLimit: rateLimitSeconds, webhooks: [hook] },
    },
  };
}

export async function startSteward(
  site: TaskEventSite,
  /** `maxConcurrent`: the task-event queue's, when not its default. */
  options: { rateLimitSeconds: number; database: string; maxConcurrent?: number | undefined },
): Promise<RunningSteward> {
  const dir = mkdtempSync(join(tmpdir(), "steward-bench-tasks-"));
  const ports = await freeTaskEventPorts();
  writeTaskEventsConfig(dir, {
    platform: site.platform,
    ports,
    extra: {
      ...alertSections(site, options.rateLimitSeconds, options.database),
      taskEvents: {
        udpServerConfig: {
          serverHost: "127.0.0.1",
          portTaskEvents: ports.udp,
          ...(options.maxConcurrent !== undefined && {
            messageQueue: { maxConcurrent: options.maxConcurrent },
          }),
        },
        timeseriesdb: { reloadTaskFailure: { enable: site.influxd !== undefined } },
        sendToMQTT: { enable: site.broker !== undefined },
      },
    },
  });
  const process = spawnSteward(["start", "--config", "steward.yaml"], {
    cwd: dir,
    // BENCH_TASK_NODE_ARGS: options for Steward's node, e.g. `--cpu-prof --cpu-prof-dir=/tmp/profiles`.
    nodeArgs: (globalThis.process.env.BENCH_TASK_NODE_ARGS ?? "").split(" ").filter((arg) => arg !== ""),
  });
  await process.waitFor(/steward ready/, 30_000);
  return {
    process,
    pid: process.child.pid as number,
    ports,
    async metrics() {
      const text = await (await fetch(`http://127.0.0.1:${ports.scrape}/metrics`)).text();
      return parsePrometheusText(text);
    },
    async stop() {
      process.child.kill("SIGTERM");
      await process.exited(15_000).catch(() => process.child.kill("SIGKILL"));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
