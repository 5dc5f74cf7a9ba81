/**
 * The scrape endpoint end to end, as a user runs it: `steward start` with a config that enables
 * the scrape endpoint, the log-event UDP listener and the audit ingest API (no other server
 * needed); datagrams sent with node:dgram and an audit event posted; then `GET /metrics`, read
 * with the strict exposition reader, and SIGTERM.
 */
import { writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { envelopeOfType } from "../../helpers/audit-envelopes.ts";
import { freePort } from "../../helpers/free-port.ts";
import { engineLogEvent } from "../../helpers/log-event-datagrams.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { parsePrometheusText, type ScrapedMetric, sampleValue } from "../../helpers/prometheus-text.ts";
import { sendDatagrams } from "../../helpers/send-datagrams.ts";
import { spawnStewardIn, startStewardIn } from "../../helpers/started-steward.ts";

const CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
const UNKNOWN_MARKER = "/qseow-nonsense/;1;2;3;4;5;6;7;8";

interface Ports {
  scrape: number;
  log: number;
  ingest: number;
}

/** A work directory with steward.yaml; the scrape endpoint's host is left to its default. */
function configDirectory(ports: Ports): string {
  const dir = scratchDirectory("steward-scrape-");
  writeFileSync(
    join(dir, "steward.yaml"),
    `Service:
  restServer:
    enable: false
  auditEvents:
    port: ${ports.ingest}
  scrapeEndpoint:
    enable: true
    port: ${ports.scrape}
  logEvents:
    udpServerConfig:
      serverHost: 127.0.0.1
      portLogEvents: ${ports.log}
    source:
      engine:
        enable: true
`,
  );
  return dir;
}

async function scrape(url: string): Promise<ScrapedMetric[]> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe(CONTENT_TYPE);
  return parsePrometheusText(await response.text());
}

/** Scrapes until `done` holds for the metrics (then returns them) or 10 s pass. */
async function scrapeUntil(
  url: string,
  done: (metrics: ScrapedMetric[]) => boolean,
): Promise<ScrapedMetric[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const metrics = await scrape(url);
    if (done(metrics) || Date.now() > deadline) return metrics;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const udp = (metrics: ScrapedMetric[], outcome: string) =>
  sampleValue(metrics, "steward_udp_messages_total", { queue: "log_events", outcome });
const audit = (metrics: ScrapedMetric[], outcome: string) =>
  sampleValue(metrics, "steward_audit_events_total", { outcome });

describe("the scrape endpoint, through `steward start`", () => {
  it("serves the UDP, audit and process metrics on loopback, and stops on SIGTERM", async () => {
    // Prepare
    const ports = { scrape: await freePort(), log: await freePort(), ingest: await freePort() };
    const dir = configDirectory(ports);
    const proc = await startStewardIn(dir);
    const url = `http://127.0.0.1:${ports.scrape}/metrics`;
    const engineEvents = Array.from({ length: 7 }, (_, i) => engineLogEvent(i + 1));

    // Act
    await sendDatagrams(ports.log, [...engineEvents, UNKNOWN_MARKER, UNKNOWN_MARKER]);
    const posted = await fetch(`http://127.0.0.1:${ports.ingest}/api/v1/audit-event`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-audit-client-version": "0.3.0" },
      body: JSON.stringify(envelopeOfType("event.bookmark")),
    });
    const metrics = await scrapeUntil(
      url,
      (scraped) =>
        (udp(scraped, "processed") ?? 0) + (udp(scraped, "unknown_marker") ?? 0) >= 9 &&
        audit(scraped, "processed") === 1,
    );
    const otherPath = await fetch(`http://127.0.0.1:${ports.scrape}/`);
    // Loopback by default: a listener on every interface would answer on 127.0.0.2 too.
    const viaOtherAddress = await fetch(`http://127.0.0.2:${ports.scrape}/metrics`).then(
      () => "answered",
      () => "refused",
    );
    proc.child.kill("SIGTERM");
    const { code } = await proc.exited();

    // Assess
    expect(posted.status).toBe(202);
    expect(udp(metrics, "received")).toBe(9);
    expect(udp(metrics, "processed")).toBe(7);
    expect(udp(metrics, "unknown_marker")).toBe(2);
    expect(udp(metrics, "dropped_queue_full")).toBe(0);
    expect(sampleValue(metrics, "steward_udp_queue_size", { queue: "log_events" })).toBe(0);
    expect(sampleValue(metrics, "steward_events_total", { event_type: "log", source: "qseow-engine" })).toBe(
      7,
    );
    expect(audit(metrics, "received")).toBe(1);
    expect(audit(metrics, "accepted")).toBe(1);
    expect(audit(metrics, "processed")).toBe(1);
    expect(audit(metrics, "failed")).toBe(0);
    expect(audit(metrics, "dropped_rate_limit")).toBe(0);
    expect(audit(metrics, "dropped_queue_full")).toBe(0);
    expect(sampleValue(metrics, "process_resident_memory_bytes")).toBeGreaterThan(2 ** 20);
    expect(metrics.find((metric) => metric.name === "nodejs_heap_size_used_bytes")?.type).toBe("gauge");
    expect(metrics.find((metric) => metric.name === "process_cpu_seconds_total")?.type).toBe("counter");
    expect(otherPath.status).toBe(404);
    expect(viaOtherAddress).toBe("refused");
    expect(code).toBe(0);
    expect(proc.output()).toContain(`Scrape endpoint listening url=http://127.0.0.1:${ports.scrape}`);
    expect(proc.output()).toContain("Scrape endpoint stopped");
    expect(proc.output()).not.toContain("have no effect");
  });

  it("exits 1 with the reason when the scrape endpoint's port cannot be bound", async () => {
    // Prepare
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const scrapePort = (taken.address() as { port: number }).port;
    const dir = configDirectory({ scrape: scrapePort, log: await freePort(), ingest: await freePort() });

    // Act
    const proc = spawnStewardIn(dir);
    const { code } = await proc.exited();
    await new Promise<void>((resolve) => taken.close(() => resolve()));

    // Assess
    expect(code).toBe(1);
    expect(proc.output()).toContain(`Scrape endpoint: cannot listen on 127.0.0.1:${scrapePort} (EADDRINUSE)`);
    expect(proc.output()).not.toContain("steward ready");
  });
});
