/**
 * The status page's Windows services section as a person sees it in Debian's Chromium. The service
 * monitor runs as the local process runs it, its sc.exe adapter over a stand-in replaying recorded
 * sc.exe outputs (test/helpers/sc-exe-stand-in.ts), behind the real config UI listener. Of three
 * watched services one runs, one has stopped since the first reading and one's host cannot be
 * reached: the page shows each state, marks the stopped and the unreadable service, and lists both
 * among the alerts at the top. Screenshots at 1280 and 420 px wide are kept under test/artifacts/.
 */
import type { Locator } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScServiceStateReader } from "../../../core/adapters/local/sc-service-state-reader.ts";
import { configView } from "../../../core/config/config-view.ts";
import { parseConfig } from "../../../core/config/index.ts";
import { createStatusBoard } from "../../../core/monitoring/status-board.ts";
import { systemClock } from "../../../core/system-clock.ts";
import { startAlerts } from "../../../functions/alerts/alerts-part.ts";
import { startAgentConnections } from "../../../local/agent/agent-connections.ts";
import { startServiceMonitor } from "../../../local/agent/service-monitor/service-monitor.ts";
import { createConfigUiApp } from "../../../local/config-ui/app.ts";
import { startHttpListener } from "../../../local/http/http-listener.ts";
import { type Browser, launchChromium, screenshotPath, skipWithoutChromium } from "../../helpers/chromium.ts";
import { until } from "../../helpers/eventually.ts";
import { createMemoryMetricsRegistry } from "../../helpers/memory-metrics-registry.ts";
import { recordingLogger } from "../../helpers/recording-logger.ts";
import { scStandIn } from "../../helpers/sc-exe-stand-in.ts";

const skip = skipWithoutChromium();
const SERVICES = {
  repository: "QlikSenseRepositoryService",
  engine: "QlikSenseEngineService",
  proxy: "QlikSenseProxyService",
};

let browser: Browser | undefined;
beforeAll(async () => {
  if (!skip) browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

function config() {
  const parsed = parseConfig({
    Service: {
      serviceMonitor: {
        enable: true,
        frequency: "every 2 seconds",
        monitor: [
          {
            host: "qs-node1",
            services: [
              { name: SERVICES.repository, friendlyName: "Repository" },
              { name: SERVICES.engine, friendlyName: "Engine" },
            ],
          },
          { host: "qs-node2", services: [{ name: SERVICES.proxy, friendlyName: "Proxy" }] },
        ],
      },
    },
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.config;
}

/** The cells of the row of `name` in `table`, by column header. */
async function row(table: Locator, name: string): Promise<Record<string, string>> {
  const headers = await table.locator("th").allInnerTexts();
  const cells = await table.locator(`tr:has(td[data-name="${name}"]) td`).allInnerTexts();
  return Object.fromEntries(headers.map((header, i) => [header, cells[i] ?? ""]));
}

describe.skipIf(skip)("status page: Windows services in Chromium", () => {
  it("shows each watched service's state, marks a stopped and an unreadable one and lists them among the alerts", async () => {
    // Prepare: all three run at the first reading; then the engine stops and node2 stops answering.
    // The monitor reads every 2 s on the system clock, as the local process runs it.
    const settings = config();
    const clock = systemClock;
    const logger = recordingLogger();
    const metrics = createMemoryMetricsRegistry();
    const sc = scStandIn();
    sc.answer("qc", "*", "qc-auto-start.txt");
    sc.answer("query", "*", "query-running.txt");
    const connections = await startAgentConnections({
      config: settings,
      logger,
      metrics,
      cwd: process.cwd(),
      clock,
    });
    const alerts = await startAlerts({ config: settings, logger, clock });
    const monitor = await startServiceMonitor({
      config: settings,
      logger,
      clock,
      metrics,
      connections,
      reader: createScServiceStateReader({ timeoutMs: 5000, command: sc.command }),
      alerts: alerts.dispatcher.dispatch,
    });
    const status = createStatusBoard({ version: "15.0.0", clock });
    status.set("serviceMonitor", "monitor", () => monitor.status());
    const ui = await startHttpListener({
      name: "Config UI",
      app: createConfigUiApp({
        view: configView({ Service: {} }, { obfuscate: true }),
        obfuscated: true,
        status,
        clock,
        logger: recordingLogger(),
        clientIp: () => "127.0.0.1",
      }),
      host: "127.0.0.1",
      port: 0,
      logger: recordingLogger(),
    });
    try {
      await until(() => monitor.status().polls >= 1, 15_000);
      sc.answer("query", SERVICES.engine, "query-stopped.txt");
      sc.answer("query", SERVICES.proxy, "query-unreachable-1722.txt", 1722);
      const byService = () => new Map(monitor.status().services.map((each) => [each.service, each]));
      await until(
        () =>
          byService().get(SERVICES.engine)?.state === "STOPPED" &&
          byService().get(SERVICES.proxy)?.lastError !== undefined,
        15_000,
      );

      // Act
      const page = await (browser as Browser).context.newPage();
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(`${ui.url}/`);
      const table = page.locator('div:has(> table[data-section="Windows services"])');
      await table.locator('td[data-name="qs-node2"]').waitFor({ timeout: 10_000 });
      const rows = await table.locator("tr").allInnerTexts();
      const node2 = await row(table, "qs-node2");
      const topAlerts = await page.locator("#status-alerts li").allInnerTexts();
      const engineRowClass = await table.locator("tr", { hasText: "Engine" }).getAttribute("class");
      await page.screenshot({ path: screenshotPath("status-services-1280"), fullPage: true });
      await table.screenshot({ path: screenshotPath("status-services-1280-table") });
      await page.setViewportSize({ width: 420, height: 800 });
      await table.screenshot({ path: screenshotPath("status-services-420-table") });
      await page.close();

      // Assess
      expect(rows.slice(1).map((text) => text.split("\t").slice(0, 3))).toEqual([
        ["qs-node1", "Repository", "RUNNING"],
        ["qs-node1", "Engine", "STOPPED"],
        ["qs-node2", "Proxy", "RUNNING (last known)"],
      ]);
      expect(engineRowClass).toBe("warn");
      expect(node2["last error"]).toMatch(/^unreachable at \d\d:\d\d:\d\d \(\d+s ago\): .*FAILED 1722/);
      expect(topAlerts).toEqual([
        expect.stringMatching(
          /^Windows service Engine on qs-node1 is STOPPED since \d\d:\d\d:\d\d \(\d+s ago\)\.$/,
        ),
        "Windows service Proxy on qs-node2 cannot be read: OpenSCManager FAILED 1722: The RPC server is unavailable.",
      ]);
    } finally {
      await ui.stop();
      await monitor.stop();
      await alerts.stop();
      await connections.stop();
    }
  }, 60_000);
});
