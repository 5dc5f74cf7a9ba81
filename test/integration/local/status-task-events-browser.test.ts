/**
 * The status page's reload-task sections as a person sees them in Debian's Chromium, over a real
 * Steward with task events on, the simulated platform and mosquitto: the latest events with the
 * broker destination's outcome and what the repository could not tell, and the destination's
 * counts; and the script logs kept on disk, with a write the directory refused. Screenshots at
 * 1280×800 are kept under test/artifacts/.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TASK_SALES } from "../../../local/simulated-platform/catalogue.ts";
import { taskDatagram } from "../../../local/simulated-platform/task-event-sender.ts";
import { recordExecution } from "../../../local/simulated-platform/task-routes.ts";
import { startTestPlatform, type TestPlatform } from "../../fixtures/platform/test-platform.ts";
import { type Browser, launchChromium, screenshotPath, skipWithoutChromium } from "../../helpers/chromium.ts";
import { until } from "../../helpers/eventually.ts";
import { type Mosquitto, skipWithoutMosquitto, startMosquitto } from "../../helpers/mosquitto.ts";
import { refuseWritesDuringTest, scratchDirectory } from "../../helpers/per-test-environment.ts";
import { sendDatagrams } from "../../helpers/send-datagrams.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";
import {
  freeTaskEventPorts,
  lastTaskEvents,
  writeTaskEventsConfig,
} from "../../helpers/task-events-steward.ts";

const skip = skipWithoutChromium() || skipWithoutMosquitto();

let platform: TestPlatform;
let broker: Mosquitto;
let browser: Browser;

beforeAll(async () => {
  if (skip) return;
  [platform, broker, browser] = await Promise.all([startTestPlatform(), startMosquitto(), launchChromium()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([platform?.stop(), broker?.stop(), browser?.close()]);
});

describe.skipIf(skip)("the status page's reload-task sections", () => {
  it("shows the latest events with each destination's outcome and what is missing, and the destination's counts", async () => {
    // Prepare
    const dir = scratchDirectory("steward-status-tasks-");
    const ports = await freeTaskEventPorts();
    writeTaskEventsConfig(dir, {
      platform,
      ports,
      extra: {
        mqttConfig: { enable: true, brokerHost: "127.0.0.1", brokerPort: broker.port },
        taskEvents: { sendToMQTT: { enable: true } },
      },
    });
    const known = randomUUID();
    recordExecution(platform.repository.taskEvents, {
      executionId: known,
      taskId: TASK_SALES,
      outcome: "failed",
      stoppedAtMs: Date.now(),
    });
    await startStewardIn(dir);

    // Act: a failure the repository knows, then an aborted run it has no result for
    await sendDatagrams(ports.udp, [taskDatagram("failed", known, Date.now())]);
    await sendDatagrams(ports.udp, [taskDatagram("aborted", randomUUID(), Date.now())]);
    await until(async () => (await lastTaskEvents(ports.ui)).length === 2, 20_000, 200);
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`http://127.0.0.1:${ports.ui}/`);
    const events = page.locator('table[data-section="Reload-task events"]');
    await events.waitFor({ timeout: 10_000 });
    await page.screenshot({ path: screenshotPath("status-task-events-1280") });
    await events.locator("..").screenshot({ path: screenshotPath("status-task-events-1280-section") });

    // Assess
    // The rows come newest first by when each run's processing ended, and the two runs end in
    // either order on a busy machine: each is found by its kind.
    const rows = await events.locator("tr").allInnerTexts();
    expect(rows).toHaveLength(3);
    const aborted = rows.find((row) => row.startsWith("reloadTaskAborted"));
    expect(aborted).toMatch(/reloadTaskAborted\s+Reload Sales\s+Sales dashboard/);
    expect(aborted).toMatch(/mqtt sent/);
    expect(aborted).toMatch(/execution, scriptLog/);
    expect(rows.find((row) => row.startsWith("reloadTaskFailure"))).toMatch(
      /reloadTaskFailure\s+Reload Sales/,
    );
    const destinations = await page.locator('table[data-section="Alert destinations"] tr').allInnerTexts();
    expect(destinations[1]).toMatch(/^mqtt\s+2\s+0\s+0\s+0/);
  });

  it("shows the script logs kept on disk: a write the directory refused, counted, with the OS's reason", async () => {
    // Prepare
    const dir = scratchDirectory("steward-status-script-logs-");
    const logs = join(dir, "script-logs");
    mkdirSync(logs);
    refuseWritesDuringTest(logs);
    const ports = await freeTaskEventPorts();
    writeTaskEventsConfig(dir, {
      platform,
      ports,
      extra: { taskEvents: { scriptLogFiles: { enable: true, directory: logs } } },
    });
    const executionId = randomUUID();
    recordExecution(platform.repository.taskEvents, {
      executionId,
      taskId: TASK_SALES,
      outcome: "failed",
      stoppedAtMs: Date.now(),
    });
    await startStewardIn(dir);

    // Act
    await sendDatagrams(ports.udp, [taskDatagram("failed", executionId, Date.now())]);
    await until(async () => (await lastTaskEvents(ports.ui)).length === 1, 20_000, 200);
    const page = await browser.context.newPage();
    await page.goto(`http://127.0.0.1:${ports.ui}/`);
    const section = page.locator('table[data-section="Script logs on disk"]');
    await section.waitFor({ timeout: 10_000 });

    // Assess
    const rows = await section.locator("tr").allInnerTexts();
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain(logs);
    expect(rows[1]).toMatch(/\s0\s+0\s+1\s+0 files, 0 B\s+.*(EROFS|EACCES|ENOTDIR)/);
  });
});
