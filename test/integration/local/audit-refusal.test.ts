/**
 * A refusal seen from outside, as an operator sees it: `steward start` writing audit events to
 * Debian's InfluxDB 1.x, whose database keeps 7 days; one event dated 2025-01-15 posted among
 * current ones. The current events are written at once; the old one is named in an ERROR line,
 * counted on `/metrics` (`steward_destination_refused_total`) and in `/status`, shown in the
 * status page's destinations table; and SIGTERM finishes promptly.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { influxEventIds } from "../../helpers/audit-destination-contents.ts";
import { type Browser, launchChromium, screenshotPath, skipWithoutChromium } from "../../helpers/chromium.ts";
import { until } from "../../helpers/eventually.ts";
import { freePort } from "../../helpers/free-port.ts";
import { eventWithId, expectNoCrash, logLines, postEvent } from "../../helpers/ingest-client.ts";
import { parsePrometheusText, sampleValue } from "../../helpers/prometheus-text.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";
import type { StewardProcess } from "../../helpers/steward-process.ts";
import { influxdForSuite } from "../../helpers/suite-influxd.ts";
import { suiteScratchDirectory } from "../../helpers/suite-scratch-directory.ts";

const { skip, influxd } = influxdForSuite();
const skipBrowser = skip || skipWithoutChromium();
const DATABASE = "refusal_seen";
const scratch = suiteScratchDirectory("steward-refusal-");

interface Destination {
  written?: number;
  rejected?: number;
  refused?: Record<string, number>;
  lastRefusal?: { reason: string; at: string; detail: string };
}

let proc: StewardProcess;
let ports: { ingest: number; scrape: number; ui: number };
const oldId = randomUUID();
const currentIds = [randomUUID(), randomUUID(), randomUUID()];
let postedAt: number;
let settledAt: number;

async function status(): Promise<Destination | undefined> {
  const document = (await (await fetch(`http://127.0.0.1:${ports.ui}/status`)).json()) as {
    destinations: Record<string, Destination>;
  };
  return document.destinations["audit.timeseriesdb"];
}

beforeAll(async () => {
  if (skip) return;
  const dir = scratch.fresh();
  mkdirSync(dir);
  ports = { ingest: await freePort(), scrape: await freePort(), ui: await freePort() };
  writeFileSync(
    join(dir, "steward.yaml"),
    `Service:
  restServer:
    enable: false
  auditEvents:
    port: ${ports.ingest}
    destination:
      enable: true
      type: timeseriesdb
      timeseriesdb:
        writeFrequency: 300
  timeseriesdbConfig:
    enable: false
    version: 1
    host: 127.0.0.1
    port: ${influxd.port}
    v1Config:
      dbName: ${DATABASE}
      retentionPolicy:
        name: week
        duration: 7d
  scrapeEndpoint:
    enable: true
    port: ${ports.scrape}
  configVisualisation:
    enable: true
    host: 127.0.0.1
    port: ${ports.ui}
`,
  );
  proc = await startStewardIn(dir, { onTestFinished: () => undefined });
  const url = `http://127.0.0.1:${ports.ingest}/api/v1/audit-event`;
  postedAt = Date.now();
  for (const id of [currentIds[0], oldId, currentIds[1], currentIds[2]] as string[]) {
    const event = { ...eventWithId(id), ...(id === oldId ? { timestamp: "2025-01-15T12:00:00.000Z" } : {}) };
    expect((await postEvent(url, event)).status).toBe(202);
  }
  await until(async () => (await status())?.rejected === 1 && (await status())?.written === 3, 10_000);
  settledAt = Date.now();
}, 60_000);

afterAll(async () => {
  if (skip || proc === undefined) return;
  if (proc.child.exitCode === null) proc.child.kill("SIGKILL");
});

describe.skipIf(skip)("a refused audit event, seen from outside", () => {
  it("writes the current events at once and keeps the old one nowhere", async () => {
    // The batch is written 300 ms after its first event; the refusal adds no backoff to that.
    expect(settledAt - postedAt).toBeLessThan(2000);
    expect([...(await influxEventIds(influxd, DATABASE))].sort()).toEqual([...currentIds].sort());
  });

  it("counts it in /status with the reason and time of the last refusal", async () => {
    expect(await status()).toMatchObject({
      written: 3,
      rejected: 1,
      refused: { beyond_retention: 1 },
      lastRefusal: { reason: "beyond_retention", detail: expect.stringContaining("retention policy") },
    });
  });

  it("counts it on /metrics by destination and reason", async () => {
    const metrics = parsePrometheusText(
      await (await fetch(`http://127.0.0.1:${ports.scrape}/metrics`)).text(),
    );

    expect(
      sampleValue(metrics, "steward_destination_refused_total", {
        destination: "audit.timeseriesdb",
        reason: "beyond_retention",
      }),
    ).toBe(1);
  });

  it("names it in one ERROR line with the destination and the reason", () => {
    const lines = logLines(proc.output(), "error", /refused audit events/);

    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("destination=timeseriesdb");
    expect(lines[0]).toContain("reason=beyond_retention");
    expect(lines[0]).toContain(oldId);
  });

  describe.skipIf(skipBrowser)("on the status page", () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
    });

    it("shows the refused count by reason and the last refusal in the destinations table", async () => {
      const page = await browser.context.newPage();
      await page.goto(`http://127.0.0.1:${ports.ui}/`);
      const row = page.locator('table[data-section="Destinations"] tr', { hasText: "audit.timeseriesdb" });
      await row.waitFor();

      expect(await row.locator('td[data-label="refused"]').innerText()).toBe("1 (beyond_retention 1)");
      expect(await row.locator('td[data-label="last refusal"]').innerText()).toMatch(
        /^beyond_retention, .* ago\): partial write: points beyond retention policy dropped=1$/,
      );
      await page.screenshot({ path: screenshotPath("status-refusal"), fullPage: true });
      await page.close();
    });
  });

  it("finishes SIGTERM promptly, without a crash", async () => {
    proc.child.kill("SIGTERM");
    const { code, ms } = await proc.exited(15_000);

    expect(code).toBe(0);
    expect(ms).toBeLessThan(5000);
    expectNoCrash(proc.output());
  });
});
