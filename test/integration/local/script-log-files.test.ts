/**
 * Failed reloads' script logs kept on disk through a real `steward start`, with the simulated
 * platform over mutual TLS and a webhook for the alert: the file holds the whole log as the
 * platform served it, in the folder of the run's UTC date; a directory the OS refuses to write
 * gives a WARN and a count while the alert still goes out; a directory that is not a valid path
 * refuses the start with the setting's name.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { TASK_SALES } from "../../../local/simulated-platform/catalogue.ts";
import { taskDatagram } from "../../../local/simulated-platform/task-event-sender.ts";
import { recordExecution } from "../../../local/simulated-platform/task-routes.ts";
import { startTestPlatform, type TestPlatform } from "../../fixtures/platform/test-platform.ts";
import { type CaptureServer, startCaptureServer } from "../../helpers/capture-server.ts";
import { until } from "../../helpers/eventually.ts";
import { refuseWritesDuringTest, scratchDirectory } from "../../helpers/per-test-environment.ts";
import { parsePrometheusText, sampleValue } from "../../helpers/prometheus-text.ts";
import { sendDatagrams } from "../../helpers/send-datagrams.ts";
import { spawnStewardIn, startStewardIn } from "../../helpers/started-steward.ts";
import {
  freeTaskEventPorts,
  taskEventCount,
  writeTaskEventsConfig,
} from "../../helpers/task-events-steward.ts";

let platform: TestPlatform;
let capture: CaptureServer;

beforeAll(async () => {
  [platform, capture] = await Promise.all([startTestPlatform(), startCaptureServer()]);
});
afterAll(async () => {
  await Promise.all([platform?.stop(), capture?.stop()]);
});
beforeEach(() => {
  platform.reset();
  capture.requests.length = 0;
});

const DAY_MS = 86_400_000;

/** Steward with script logs kept in `directory` and failed reloads sent to the capture webhook. */
async function startKeepingLogs(directory: string) {
  const dir = scratchDirectory("steward-script-log-files-");
  const ports = await freeTaskEventPorts();
  writeTaskEventsConfig(dir, {
    platform,
    ports,
    extra: {
      taskEvents: { scriptLogFiles: { enable: true, directory } },
      webhookNotification: {
        enable: true,
        reloadTaskFailure: { rateLimit: 0, webhooks: [{ webhookURL: `${capture.url}/hook` }] },
      },
    },
  });
  const steward = await startStewardIn(dir);
  return { dir, ports, steward };
}

/** A failed run of the Sales reload that stopped 30 s into today (UTC), so it started yesterday. */
function failedRun(): { executionId: string; startDate: string } {
  const executionId = randomUUID();
  const stoppedAtMs = Math.floor(Date.now() / DAY_MS) * DAY_MS + 30_000;
  recordExecution(platform.repository.taskEvents, {
    executionId,
    taskId: TASK_SALES,
    outcome: "failed",
    stoppedAtMs,
  });
  return { executionId, startDate: new Date(stoppedAtMs - DAY_MS).toISOString().slice(0, 10) };
}

async function scriptLogCount(scrapePort: number, outcome: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${scrapePort}/metrics`)).text();
  return sampleValue(parsePrometheusText(text), "steward_script_logs_total", { outcome }) ?? 0;
}

/** `taskEvents.scriptLogFiles` of `GET /status`. */
async function shownOnStatusPage(uiPort: number) {
  const status = (await (await fetch(`http://127.0.0.1:${uiPort}/status`)).json()) as {
    taskEvents?: { scriptLogFiles?: { lastError?: { message: string } } & Record<string, unknown> };
  };
  return status.taskEvents?.scriptLogFiles;
}

describe("script logs of failed reloads through `steward start`", () => {
  it("keeps the whole log as the platform served it in <dir>/<UTC date of the run start>/<taskId>-<executionId>.log", async () => {
    // Prepare
    const logs = join(scratchDirectory("steward-kept-logs-"), "script-logs");
    const { ports } = await startKeepingLogs(logs);
    const { executionId, startDate } = failedRun();

    // Act
    await sendDatagrams(ports.udp, [taskDatagram("failed", executionId, Date.now())]);
    await until(async () => (await taskEventCount(ports.scrape, "failed", "processed")) === 1, 15_000, 100);

    // Assess
    expect(readdirSync(logs)).toEqual([startDate]);
    const name = `${TASK_SALES}-${executionId}.log`;
    expect(readdirSync(join(logs, startDate))).toEqual([name]);
    expect(readFileSync(join(logs, startDate, name), "utf8")).toBe(
      [
        "20261126T020000.000+0100 Execution started.",
        "20261126T020000.010+0100 Qlik Sense Server Version 14.129.3",
        "20261126T020001.000+0100 0002 LOAD * FROM [lib://Data/sales.qvd] (qvd)",
        "20261126T020059.000+0100 Error: Cannot open file: 'lib://Data/sales.qvd'",
        "20261126T020100.000+0100 Execution Failed",
        "",
      ].join("\r\n"),
    );
    expect(await scriptLogCount(ports.scrape, "written")).toBe(1);
    expect(await shownOnStatusPage(ports.ui)).toMatchObject({
      directory: logs,
      written: 1,
      failed: 0,
      notAvailable: 0,
      kept: { files: 1, bytes: statSync(join(logs, startDate, name)).size },
    });
    expect(capture.requests).toHaveLength(1);
    // Downloaded once, for the alert and the file alike.
    const downloads = platform.repository.calls.filter((call) => call.path.endsWith("/scriptlog.txt"));
    expect(downloads).toHaveLength(1);
  });

  it("in a directory the OS refuses to write, says so at WARN and counts it, and the alert still goes out", async () => {
    // Prepare
    const logs = join(scratchDirectory("steward-kept-logs-"), "script-logs");
    mkdirSync(logs, { recursive: true });
    const refusal = refuseWritesDuringTest(logs);
    const { ports, steward } = await startKeepingLogs(logs);
    const { executionId } = failedRun();

    // Act
    await sendDatagrams(ports.udp, [taskDatagram("failed", executionId, Date.now())]);
    await until(async () => (await taskEventCount(ports.scrape, "failed", "processed")) === 1, 15_000, 100);

    // Assess
    expect(capture.requests, refusal.how).toHaveLength(1);
    expect(await scriptLogCount(ports.scrape, "failed")).toBe(1);
    expect(await scriptLogCount(ports.scrape, "written")).toBe(0);
    expect((await shownOnStatusPage(ports.ui))?.lastError?.message).toMatch(/EROFS|EACCES|ENOTDIR/);
    await steward.waitFor(
      /the script log of a failed reload could not be kept on disk.*(EROFS|EACCES|ENOTDIR)/,
      5000,
    );
    expect(steward.output()).toMatch(/warn.*could not be kept on disk/i);
  });

  it("refuses to start with a directory that is not a valid path, naming the setting", async () => {
    // Prepare
    const dir = scratchDirectory("steward-script-log-files-");
    const ports = await freeTaskEventPorts();
    writeTaskEventsConfig(dir, {
      platform,
      ports,
      extra: { taskEvents: { scriptLogFiles: { enable: true, directory: "//fileserver/qlik/logs" } } },
    });

    // Act
    const proc = spawnStewardIn(dir);
    const { code } = await proc.exited();

    // Assess
    expect(code).toBe(1);
    expect(proc.output()).toMatch(/taskEvents\.scriptLogFiles\.directory: UNC paths are not supported/);
  });
});
