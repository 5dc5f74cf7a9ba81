import { describe, expect, it } from "vitest";
import { configView } from "../../../../core/config/config-view.ts";
import { createStatusBoard } from "../../../../core/monitoring/status-board.ts";
import { CONFIG_UI_LIMIT_PER_MINUTE, createConfigUiApp } from "../../../../local/config-ui/app.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { envRef } from "../../core/config/helpers.ts";

const RAW = {
  Service: {
    restServer: { apiToken: "plain-secret-123", port: 8081 },
    auditEvents: { apiToken: `${envRef("STEWARD_API_TOKEN")}` },
    configVisualisation: { enable: true, host: "monitor.example.com" },
  },
};

function setup(options: { obfuscate?: boolean; limit?: number } = {}) {
  const clock = createManualClock(Date.UTC(2026, 0, 1, 12, 0, 0));
  const logger = recordingLogger();
  const status = createStatusBoard({ version: "15.0.0", clock });
  let ip = "192.0.2.10";
  const obfuscate = options.obfuscate ?? true;
  const app = createConfigUiApp({
    view: configView(RAW, { obfuscate, logLevel: "debug" }),
    obfuscated: obfuscate,
    status,
    clock,
    logger,
    clientIp: () => ip,
    ...(options.limit === undefined ? {} : { limitPerMinute: options.limit }),
  });
  return { app, clock, logger, status, setIp: (next: string) => (ip = next) };
}

describe("config UI app", () => {
  it(`serves the page with numbered YAML lines, masked secrets, ${envRef("ENV")} as written and the --log-level override`, async () => {
    const { app } = setup();
    const response = await app.request("/");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-security-policy")).toContain("script-src 'self'");
    const html = await response.text();
    expect(html).toContain('<ol class="yaml" id="yaml">');
    expect(html).toContain(`${envRef("STEWARD_API_TOKEN")}`);
    expect(html).toContain("logLevel");
    expect(html).toContain("debug");
    expect(html).toContain("mon**********");
    expect(html).not.toContain("plain-secret-123");
    expect(html).not.toContain("monitor.example.com");
    expect(html).not.toMatch(/<script>|<style|https?:\/\/(?!www\.w3\.org)/);
  });

  it("shows the values in clear when obfuscate is false", async () => {
    const { app } = setup({ obfuscate: false });
    expect(await (await app.request("/config.yaml")).text()).toContain("plain-secret-123");
  });

  it("offers the masked YAML as a download", async () => {
    const { app } = setup();
    const response = await app.request("/config.yaml");
    expect(response.headers.get("content-disposition")).toContain("attachment");
    const text = await response.text();
    expect(text).toContain(`apiToken: ${envRef("STEWARD_API_TOKEN")}`);
    expect(text).not.toContain("plain-secret-123");
  });

  it("serves GET /status as JSON with version and uptime", async () => {
    const { app, clock, status } = setup();
    status.set("listeners", "REST API", () => ({ state: "listening" }));
    clock.advance(12_500);
    const doc = (await (await app.request("/status")).json()) as Record<string, unknown>;
    expect(doc).toMatchObject({
      version: "15.0.0",
      uptimeSeconds: 12.5,
      listeners: { "REST API": { state: "listening" } },
    });
  });

  it("passes the audit queue and the stores to GET /status as their parts report them", async () => {
    const { app, status } = setup();
    const queue = {
      state: "available",
      directory: "/var/lib/steward/queue",
      bytesOnDisk: 4096,
      maxDiskBytes: 65536,
      warnAtPct: 80,
      full: { since: "2026-01-01T11:59:00.000Z", refused: 3 },
      destinations: { json: { behindBytes: 4096 } },
    };
    const keyValues = { state: "unavailable", file: "/data/key-values.json", reason: "EROFS", refused: 1 };
    status.set("audit", "queue", () => queue);
    status.set("stores", "keyValues", () => keyValues);
    const doc = (await (await app.request("/status")).json()) as Record<string, Record<string, unknown>>;
    expect(doc.audit?.queue).toEqual(queue);
    expect(doc.stores).toEqual({ keyValues });
  });

  it("has a place for alerts, and its script writes text only, never HTML from the answer", async () => {
    const { app } = setup();
    expect(await (await app.request("/")).text()).toContain('<div id="status-alerts"></div>');
    const script = await (await app.request("/assets/status.js")).text();
    expect(script).toContain("textContent");
    expect(script).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(/);
  });

  it("serves its own stylesheet and script, and a 404 page for anything else", async () => {
    const { app } = setup();
    expect((await app.request("/assets/page.css")).headers.get("content-type")).toMatch(/^text\/css/);
    expect(await (await app.request("/assets/status.js")).text()).toContain('fetch("/status"');
    const missing = await app.request("/assets/nothing.js");
    expect(missing.status).toBe(404);
    expect((await app.request("/etc/passwd")).status).toBe(404);
  });

  it(`limits each client IP to ${CONFIG_UI_LIMIT_PER_MINUTE} requests per fixed 60 s window (429 beyond, logged)`, async () => {
    const { app, clock, logger, setIp } = setup();
    for (let i = 0; i < CONFIG_UI_LIMIT_PER_MINUTE; i++)
      expect((await app.request("/status")).status).toBe(200);
    const refused = await app.request("/");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).not.toBeNull();
    expect(logger.entries.some((e) => e.level === "warn" && e.message.includes("rate limit"))).toBe(true);
    setIp("192.0.2.11");
    expect((await app.request("/")).status).toBe(200);
    setIp("192.0.2.10");
    clock.advance(60_000);
    expect((await app.request("/")).status).toBe(200);
  });
});
