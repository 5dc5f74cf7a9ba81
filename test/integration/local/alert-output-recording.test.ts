/**
 * Every message the reload-task and server-licence alerts send, byte for byte, held against the
 * recordings in test/fixtures/alert-recordings/: each email (recipients, sender, subject,
 * priority, text and HTML), Teams card, Slack message, webhook call, observability event and log
 * post, InfluxDB write (line protocol) and broker message, for a fixed set of task events and
 * server licences. Steward runs in this process (startLocal) against the simulated platform,
 * a real SMTP server, an MQTT broker, and capture servers for HTTP and InfluxDB, with a clock
 * stopped at one instant, so that every time in the messages is the same from run to run.
 *
 * The recordings were made before the alert code took its present shape and must not change
 * with how the code is arranged: a difference is a change of what operators receive. Two things
 * are not Steward's choice and are left out or named: Steward's own version in the observability
 * posts (written `<version>`), and the headers an HTTP library adds (host, length, agent).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { connect, type MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Config, parseConfig } from "../../../core/config/index.ts";
import type { Clock } from "../../../core/ports.ts";
import { systemClock } from "../../../core/system-clock.ts";
import { SERVICE_VERSION } from "../../../core/version.ts";
import {
  APP_BROKEN,
  APP_SALES,
  TASK_FINANCE,
  TASK_HR,
  TASK_SALES,
} from "../../../local/simulated-platform/catalogue.ts";
import {
  recordExecution,
  type SimRunOutcome,
  TASK_DISTRIBUTE,
  TASK_EXTERNAL_PROGRAM,
  TASK_PRELOAD,
  TASK_USER_SYNC,
} from "../../../local/simulated-platform/task-routes.ts";
import { startLocal } from "../../../local/wiring.ts";
import { startTestPlatform, type TestPlatform } from "../../fixtures/platform/test-platform.ts";
import { type AedesBroker, startAedes } from "../../helpers/aedes-broker.ts";
import {
  LICENCE_TEMPLATES,
  licenceDestinations,
  TASK_TEMPLATES,
  taskDestinations,
} from "../../helpers/alert-recording-config.ts";
import {
  type CapturedRequest,
  type CaptureServer,
  startCaptureServer,
} from "../../helpers/capture-server.ts";
import { until } from "../../helpers/eventually.ts";
import { freePort } from "../../helpers/free-port.ts";
import { type InfluxV1Capture, startInfluxV1Capture } from "../../helpers/influx-v1-capture.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { type RecordingLogger, recordingLogger } from "../../helpers/recording-logger.ts";
import { sendDatagrams } from "../../helpers/send-datagrams.ts";
import { type ReceivedEmail, type SmtpCapture, startSmtpCapture } from "../../helpers/smtp-capture.ts";

const FIXTURES = join(import.meta.dirname, "..", "..", "fixtures", "alert-recordings");
/** The instant every run of the test lives in: 2026-12-01 08:30 UTC. */
const NOW_MS = Date.parse("2026-12-01T08:30:00.000Z");
const frozenClock: Clock = { ...systemClock, now: () => NOW_MS };

let platform: TestPlatform;
let smtp: SmtpCapture;
let capture: CaptureServer;
let influx: InfluxV1Capture;
let broker: AedesBroker;
let subscriber: MqttClient;
const brokerMessages: { topic: string; payload: unknown }[] = [];
const zoneBefore = process.env.TZ;

beforeAll(async () => {
  // The local times of the messages are in the process's zone; one that is not UTC shows them.
  process.env.TZ = "Europe/Stockholm";
  [platform, smtp, capture, influx, broker] = await Promise.all([
    startTestPlatform(),
    startSmtpCapture(),
    startCaptureServer(),
    startInfluxV1Capture(),
    startAedes(),
  ]);
  subscriber = connect(`mqtt://127.0.0.1:${broker.port}`);
  await new Promise<void>((resolve) => subscriber.on("connect", () => resolve()));
  await subscriber.subscribeAsync("qliksense/#");
  subscriber.on("message", (topic, payload) =>
    brokerMessages.push({ topic, payload: parsed(payload.toString()) }),
  );
});
afterAll(async () => {
  await subscriber?.endAsync();
  await Promise.all([platform?.stop(), smtp?.stop(), capture?.stop(), influx?.stop(), broker?.stop()]);
  process.env.TZ = zoneBefore;
});

/** JSON as the object it is when it is exactly its compact form; the text otherwise. */
function parsed(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return JSON.stringify(value) === text ? value : text;
  } catch {
    return text;
  }
}

const KEPT_HEADERS = /^(content-type|api-key|authorization|x-.*)$/;

function requestRecord(request: CapturedRequest) {
  const headers = Object.fromEntries(
    Object.entries(request.headers)
      .filter(([name]) => KEPT_HEADERS.test(name))
      .sort(([a], [b]) => a.localeCompare(b)),
  );
  const body = request.body.replaceAll(JSON.stringify(SERVICE_VERSION), '"<version>"');
  return { method: request.method, path: request.path, headers, body: parsed(body) };
}

const PRIORITY_HEADERS = new Set(["x-priority", "x-msmail-priority", "importance"]);

function emailRecord({ envelopeTo, mail }: ReceivedEmail) {
  return {
    envelopeTo,
    from: mail.from?.text,
    to: [mail.to].flat().map((to) => to?.text),
    subject: mail.subject,
    priority: mail.headerLines.filter(({ key }) => PRIORITY_HEADERS.has(key)).map(({ line }) => line),
    text: mail.text,
  };
}

/** What was captured since `mark`, with the emails' HTML apart; parallel sends sorted so that the order is the same every run. */
function capturedSince(mark: Marks) {
  const emails = smtp.received
    .slice(mark.emails)
    .sort((a, b) => (a.envelopeTo.join() < b.envelopeTo.join() ? -1 : 1));
  const requests = capture.requests.slice(mark.requests).map(requestRecord);
  requests.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  return {
    record: { emails: emails.map(emailRecord), requests, influxWrites: influx.writes.slice(mark.writes) },
    html: emails.map((email) => ({ to: email.envelopeTo.join(","), html: email.mail.html })),
  };
}

interface Marks {
  readonly emails: number;
  readonly requests: number;
  readonly writes: number;
}

const marks = (): Marks => ({
  emails: smtp.received.length,
  requests: capture.requests.length,
  writes: influx.writes.length,
});

async function expectRecorded(folder: string, name: string, captured: ReturnType<typeof capturedSince>) {
  await expect(`${JSON.stringify(captured.record, null, 2)}\n`).toMatchFileSnapshot(
    join(FIXTURES, folder, `${name}.json`),
  );
  for (const { to, html } of captured.html)
    await expect(String(html)).toMatchFileSnapshot(join(FIXTURES, folder, `${name}.${to}.html`));
}

/** The configuration of one run: the platform, the capture servers and `sections`. */
function configOf(sections: Record<string, unknown>): Config {
  const result = parseConfig(
    {
      Service: {
        fileLogging: false,
        restServer: { enable: false },
        auditEvents: { enable: false },
        configVisualisation: { enable: false },
        cert: {
          clientCert: platform.pki.clientCertPath,
          clientCertKey: platform.pki.clientKeyPath,
          clientCertCA: platform.pki.caPath,
        },
        platform: { host: "127.0.0.1", repositoryPort: platform.servers[0]?.port, timeoutMs: 2000 },
        timeseriesdbConfig: {
          enable: true,
          version: 1,
          host: "127.0.0.1",
          port: influx.port,
          v1Config: { dbName: "senseops" },
        },
        // What the alerts send, not the task-event listener's status (a test of its own has that).
        mqttConfig: {
          enable: true,
          brokerHost: "127.0.0.1",
          brokerPort: broker.port,
          taskFailureServerStatusTopic: "",
        },
        qlikSenseUrls: {
          qmc: "https://sense.example.com/qmc",
          hub: "https://sense.example.com/hub",
          appBaseUrl: "https://sense.example.com/sense/app/",
        },
        genericUrls: [{ id: "runbook", linkText: "Runbook", url: "https://wiki.example.com/runbook" }],
        ...sections,
      },
    },
    {},
  );
  if (!result.ok) throw new Error(result.problems.map((p) => `${p.path}: ${p.message}`).join("; "));
  return result.config;
}

function writeTemplates(dir: string, templates: Readonly<Record<string, string>>): void {
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(templates)) writeFileSync(join(dir, name), text);
}

interface TaskRun {
  readonly name: string;
  /** Which of the appender's prefixes the datagram carries. */
  readonly prefix: "failed" | "aborted" | "success" | "distribute";
  readonly taskId: string;
  readonly taskName: string;
  readonly appId: string;
  readonly appName: string;
  /** What the repository recorded of the run; undefined: it knows no such execution. */
  readonly outcome: SimRunOutcome | undefined;
  readonly level: string;
  readonly message: string;
}

type Task = Pick<TaskRun, "taskId" | "taskName" | "appId" | "appName">;

const SALES: Task = {
  taskId: TASK_SALES,
  taskName: "Reload Sales",
  appId: APP_SALES,
  appName: "Sales dashboard",
};
const FINANCE: Task = { ...SALES, taskId: TASK_FINANCE, taskName: "Reload Finance" };
const HR: Task = { taskId: TASK_HR, taskName: "Reload HR", appId: APP_BROKEN, appName: "Broken script" };
const EXTERNAL: Task = {
  taskId: TASK_EXTERNAL_PROGRAM,
  taskName: "Copy QVDs to archive",
  appId: "",
  appName: "",
};
const USER_SYNC: Task = { taskId: TASK_USER_SYNC, taskName: "Sync ACME directory", appId: "", appName: "" };
const DISTRIBUTE: Task = { ...SALES, taskId: TASK_DISTRIBUTE, taskName: "Distribute Sales" };
const PRELOAD: Task = { ...SALES, taskId: TASK_PRELOAD, taskName: "Preload Sales" };

/** Markup of every chat service in the scheduler's message: it must arrive as these characters. */
const MARKUP = 'FinishedFail: *see* [the runbook](https://evil.example) <!channel> & "quotes" _now_';
const FAILED = { level: "ERROR", message: "Task finished with state FinishedFail" };
const SUCCEEDED = { level: "INFO", message: "Execution State Change to FinishedSuccess" };
const DISTRIBUTED = { level: "INFO", message: "Distribution finished" };

/** The runs, sent one after the other; each gets its own recording. */
const TASK_RUNS: readonly TaskRun[] = [
  {
    name: "01-reload-failed",
    prefix: "failed",
    ...SALES,
    outcome: "failed",
    level: "ERROR",
    message: MARKUP,
  },
  {
    name: "02-reload-aborted",
    prefix: "aborted",
    ...FINANCE,
    outcome: "aborted",
    level: "INFO",
    message: "Execution State Change to Aborting",
  },
  { name: "03-reload-succeeded", prefix: "success", ...FINANCE, outcome: "success", ...SUCCEEDED },
  { name: "04-reload-failed-unknown-execution", prefix: "failed", ...HR, outcome: undefined, ...FAILED },
  { name: "05-external-program-failed", prefix: "failed", ...EXTERNAL, outcome: "failed", ...FAILED },
  { name: "06-external-program-succeeded", prefix: "success", ...EXTERNAL, outcome: "success", ...SUCCEEDED },
  { name: "07-user-sync-failed", prefix: "failed", ...USER_SYNC, outcome: "failed", ...FAILED },
  { name: "08-user-sync-succeeded", prefix: "success", ...USER_SYNC, outcome: "success", ...SUCCEEDED },
  { name: "09-distribute-failed", prefix: "distribute", ...DISTRIBUTE, outcome: "failed", ...DISTRIBUTED },
  {
    name: "10-distribute-succeeded",
    prefix: "distribute",
    ...DISTRIBUTE,
    outcome: "success",
    ...DISTRIBUTED,
  },
  { name: "11-preload-failed", prefix: "failed", ...PRELOAD, outcome: "failed", ...FAILED },
  { name: "12-preload-succeeded", prefix: "success", ...PRELOAD, outcome: "success", ...SUCCEEDED },
];

const PREFIX: Readonly<Record<TaskRun["prefix"], string>> = {
  failed: "/scheduler-task-failed/",
  aborted: "/scheduler-task-aborted/",
  success: "/scheduler-task-success/",
  distribute: "/scheduler-distribute/",
};

/** The datagram of run number `index`, its execution recorded in the repository when the run has an outcome. */
function datagramOf(taskRun: TaskRun, index: number): string {
  const executionId = `e0e0e0e0-0000-4000-8000-${String(index + 1).padStart(12, "0")}`;
  const stoppedAtMs = NOW_MS - 20_000 - index * 1000;
  if (taskRun.outcome !== undefined)
    recordExecution(platform.repository.taskEvents, {
      executionId,
      taskId: taskRun.taskId,
      outcome: taskRun.outcome,
      stoppedAtMs,
    });
  return [
    PREFIX[taskRun.prefix],
    "qs-node1",
    taskRun.taskName,
    taskRun.appName,
    "INTERNAL\\sa_scheduler",
    taskRun.taskId,
    taskRun.appId,
    `2026-12-01 09:29:${String(10 + index).padStart(2, "0")},123`,
    taskRun.level,
    executionId,
    taskRun.message,
  ].join(";");
}

const processedLines = (logger: RecordingLogger) =>
  logger.entries.filter((entry) => entry.message.startsWith("reload task ")).length;

/** Resolves once at least `count` broker messages arrived and no other came for 300 ms. */
async function brokerQuiet(count: number): Promise<void> {
  await until(() => brokerMessages.length >= count, 5000);
  let seen = -1;
  while (seen !== brokerMessages.length) {
    seen = brokerMessages.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

async function startRecording(config: Config, logger: RecordingLogger, cwd: string) {
  return startLocal(config, logger, { clock: frozenClock, cwd });
}

describe("what the alerts send, byte for byte as recorded", () => {
  it("reload-task alerts: every email, card, message, webhook call, observability post, point and broker message", async () => {
    // Prepare
    platform.reset();
    brokerMessages.length = 0;
    const dir = scratchDirectory("steward-alert-recording-");
    writeTemplates(join(dir, "templates"), TASK_TEMPLATES);
    const udpPort = await freePort();
    const config = configOf(taskDestinations({ dir, udpPort, smtpPort: smtp.port, capture: capture.url }));
    const logger = recordingLogger();
    const steward = await startRecording(config, logger, dir);

    // Act: one run at a time, each recorded once Steward has said what it did with it
    const recordings: [string, ReturnType<typeof capturedSince>][] = [];
    try {
      for (const [index, taskRun] of TASK_RUNS.entries()) {
        const mark = marks();
        const before = processedLines(logger);
        await sendDatagrams(udpPort, [datagramOf(taskRun, index)]);
        await until(() => processedLines(logger) > before, 15_000);
        recordings.push([taskRun.name, capturedSince(mark)]);
      }
    } finally {
      await steward.stop();
    }
    await brokerQuiet(4);

    // Assess
    for (const [name, captured] of recordings) await expectRecorded("task-alerts", name, captured);
    await expect(`${JSON.stringify(brokerMessages, null, 2)}\n`).toMatchFileSnapshot(
      join(FIXTURES, "task-alerts", "broker-messages.json"),
    );
  }, 90_000);

  for (const licence of [
    { name: "licence-expiring", expiryDate: "2026-12-13", expired: false },
    { name: "licence-expired", expiryDate: "2026-11-28", expired: true },
  ]) {
    it(`server licence alerts (${licence.name}): every email, card, message, webhook call, point and broker message`, async () => {
      // Prepare
      platform.reset();
      platform.repository.licenses.expiryDate = licence.expiryDate;
      brokerMessages.length = 0;
      const dir = scratchDirectory("steward-licence-recording-");
      writeTemplates(join(dir, "templates"), LICENCE_TEMPLATES);
      const config = configOf(
        licenceDestinations({ dir, smtpPort: smtp.port, capture: capture.url, formatted: licence.expired }),
      );
      const mark = marks();

      // Act
      const steward = await startRecording(config, recordingLogger(), dir);
      try {
        await until(
          () => smtp.received.length > mark.emails && capture.requests.length >= mark.requests + 4,
          15_000,
        );
      } finally {
        await steward.stop();
      }
      await brokerQuiet(2);

      // Assess
      await expectRecorded("licence-alerts", licence.name, capturedSince(mark));
      await expect(`${JSON.stringify(brokerMessages, null, 2)}\n`).toMatchFileSnapshot(
        join(FIXTURES, "licence-alerts", `${licence.name}.broker-messages.json`),
      );
    }, 60_000);
  }
});
