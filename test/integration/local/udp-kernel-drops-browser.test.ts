/**
 * The status page's "dropped by OS" column as a person sees it in Debian's Chromium: two UDP
 * listeners started as the local runtime starts them, on real loopback sockets, behind the real
 * config UI listener. The user-event listener (64 KiB receive buffer) reads Linux's
 * /proc/net/udp and is flooded from this process, so the kernel drops most of a burst; the
 * log-event listener's reader is pointed at tables that do not exist, as on a system without them.
 * The page must show the first count as /proc/net/udp has it (marked) and "not available" with the
 * reason on hover for the second, never 0. Screenshots at 1280 px and 420 px wide are kept under
 * test/artifacts/.
 */
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryAppNameCache } from "../../../core/adapters/local/memory-app-name-cache.ts";
import { configView } from "../../../core/config/config-view.ts";
import { parseConfig } from "../../../core/config/index.ts";
import { createStatusBoard } from "../../../core/monitoring/status-board.ts";
import type { Stoppable } from "../../../core/ports.ts";
import { systemClock } from "../../../core/system-clock.ts";
import { startAgentConnections } from "../../../local/agent/agent-connections.ts";
import { createProcNetUdpReader, type KernelDropReader } from "../../../local/agent/kernel-drop-reader.ts";
import { startUdpEvents, type UdpEvents } from "../../../local/agent/udp-events.ts";
import { udpListenerStatus } from "../../../local/agent/udp-status.ts";
import { createConfigUiApp } from "../../../local/config-ui/app.ts";
import { startHttpListener } from "../../../local/http/http-listener.ts";
import { type Browser, launchChromium, screenshotPath, skipWithoutChromium } from "../../helpers/chromium.ts";
import { until } from "../../helpers/eventually.ts";
import { freePort } from "../../helpers/free-port.ts";
import { kernelDropsOn127, skipWithoutProcNetUdp } from "../../helpers/kernel-udp-table.ts";
import { createMemoryMetricsRegistry } from "../../helpers/memory-metrics-registry.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { recordingLogger } from "../../helpers/recording-logger.ts";
import { floodDatagrams } from "../../helpers/send-datagrams.ts";

const skip = skipWithoutChromium() || skipWithoutProcNetUdp();
const BURST = 3000;

let browser: Browser | undefined;
beforeAll(async () => {
  if (!skip) browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

/** One UDP part of the agent as the local runtime starts it, with its own kernel-drop reader. */
async function startUdpPart(service: Record<string, unknown>, kernelDrops: KernelDropReader, dir: string) {
  const parsed = parseConfig({ Service: service });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const logger = recordingLogger();
  const metrics = createMemoryMetricsRegistry();
  const connections = await startAgentConnections({ config: parsed.config, logger, metrics, cwd: dir });
  const udp = await startUdpEvents({
    config: parsed.config,
    logger,
    clock: systemClock,
    cwd: dir,
    metrics,
    appNames: createMemoryAppNameCache(),
    connections,
    kernelDrops,
  });
  return { udp, stop: () => udp.stop().then(() => connections.stop()) };
}

/** The config UI's listener, its status page showing the UDP queues of `parts`. */
async function serveStatusPage(parts: readonly UdpEvents[]) {
  const status = createStatusBoard({ version: "15.0.0", clock: systemClock });
  for (const udp of parts) {
    for (const view of [udp.userEvents, udp.logEvents]) {
      if (view !== undefined) status.set("udpQueues", view.queue.name, () => udpListenerStatus(view));
    }
  }
  return startHttpListener({
    name: "Config UI",
    app: createConfigUiApp({
      view: configView({ Service: {} }, { obfuscate: true }),
      obfuscated: true,
      status,
      clock: systemClock,
      logger: recordingLogger(),
      clientIp: () => "127.0.0.1",
    }),
    host: "127.0.0.1",
    port: 0,
    logger: recordingLogger(),
  });
}

/** The text, class and title of the "dropped by OS" cell in the row of `queue`. */
async function kernelCell(page: Page, queue: string) {
  const table = page.locator('table[data-section="UDP queues"]');
  const headers = await table.locator("th").allInnerTexts();
  const cell = table.locator(`tr:has(td[data-name="${queue}"]) td`).nth(headers.indexOf("dropped by OS"));
  return {
    text: await cell.innerText(),
    cls: await cell.getAttribute("class"),
    title: await cell.getAttribute("title"),
  };
}

describe.skipIf(skip)("status page: datagrams dropped by the OS, in Chromium", () => {
  it("shows the kernel's count where Linux reports it and 'not available' with the reason where not", async () => {
    // Prepare
    const dir = scratchDirectory("steward-kernel-drops-page-");
    const ports = { user: await freePort(), log: await freePort() };
    const missing = { ipv4: join(dir, "no-proc", "udp"), ipv6: join(dir, "no-proc", "udp6") };
    const running: Stoppable[] = [];
    try {
      const user = await startUdpPart(
        {
          userEvents: {
            enable: true,
            udpServerConfig: {
              serverHost: "127.0.0.1",
              portUserActivityEvents: ports.user,
              receiveBufferBytes: 65536,
            },
          },
        },
        createProcNetUdpReader(),
        dir,
      );
      running.push(user);
      const log = await startUdpPart(
        {
          logEvents: {
            udpServerConfig: { serverHost: "127.0.0.1", portLogEvents: ports.log },
            source: { engine: { enable: true } },
          },
        },
        createProcNetUdpReader({ files: missing }),
        dir,
      );
      running.push(log);
      const ui = await serveStatusPage([user.udp, log.udp]);
      running.push(ui);

      // Act
      await floodDatagrams(ports.user, BURST);
      const userQueue = user.udp.userEvents?.queue;
      await until(
        () => (userQueue?.counters().received ?? 0) + kernelDropsOn127(ports.user) === BURST,
        10_000,
      );
      const dropped = kernelDropsOn127(ports.user);
      const page = await (browser as Browser).context.newPage();
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(`${ui.url}/`);
      await page.locator('table[data-section="UDP queues"]').waitFor({ timeout: 10_000 });
      const shown = {
        user: await kernelCell(page, "user_events"),
        log: await kernelCell(page, "log_events"),
      };
      await page.screenshot({ path: screenshotPath("status-kernel-drops-1280") });
      await page
        .locator('table[data-section="UDP queues"]')
        .screenshot({ path: screenshotPath("status-kernel-drops-1280-udp") });
      await page.setViewportSize({ width: 420, height: 800 });
      await page
        .locator('table[data-section="UDP queues"]')
        .screenshot({ path: screenshotPath("status-kernel-drops-420-udp") });
      await page.close();

      // Assess
      expect(dropped).toBeGreaterThan(BURST / 2);
      expect(shown.user).toEqual({ text: dropped.toLocaleString("en"), cls: "error", title: null });
      expect(shown.log).toEqual({
        text: "not available",
        cls: "muted",
        title: `cannot read ${missing.ipv4} (ENOENT)`,
      });
    } finally {
      for (const service of running.reverse()) await service.stop();
    }
  }, 60_000);
});

describe.skipIf(skip)("status page: datagrams dropped by the OS, on a platform without the count", () => {
  it("says 'not available on this platform' with the reason on hover, as on Windows", async () => {
    // Prepare
    const dir = scratchDirectory("steward-kernel-drops-windows-page-");
    const port = await freePort();
    const running: Stoppable[] = [];
    try {
      const user = await startUdpPart(
        {
          userEvents: {
            enable: true,
            udpServerConfig: { serverHost: "127.0.0.1", portUserActivityEvents: port },
          },
        },
        createProcNetUdpReader({ platform: "win32" }),
        dir,
      );
      running.push(user);
      const ui = await serveStatusPage([user.udp]);
      running.push(ui);

      // Act
      const page = await (browser as Browser).context.newPage();
      await page.goto(`${ui.url}/`);
      await page.locator('table[data-section="UDP queues"]').waitFor({ timeout: 10_000 });
      const shown = await kernelCell(page, "user_events");
      await page
        .locator('table[data-section="UDP queues"]')
        .screenshot({ path: screenshotPath("status-kernel-drops-windows-udp") });
      await page.close();

      // Assess
      expect(shown).toEqual({
        text: "not available on this platform",
        cls: "muted",
        title: "the operating system (win32) does not report drops per socket",
      });
    } finally {
      for (const service of running.reverse()) await service.stop();
    }
  }, 60_000);
});
