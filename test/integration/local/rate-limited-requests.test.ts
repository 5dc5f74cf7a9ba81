/**
 * Requests refused by the per-client rate limit, as an operator sees them: `steward start` with the
 * ingest API and the REST API (each limited to 2 requests a minute), or the config UI and status
 * page (300 a minute, fixed), and the scrape endpoint. A client over the limit gets its 429s, and
 * the operator gets one WARN per listener naming the client's IP with the count (not one line per
 * request) and the count on /metrics.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { freePort } from "../../helpers/free-port.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";

const REFUSED_LINE =
  /warn: \[(audit-ingest|rest)\] Client over the rate limit: its requests are refused with 429 .*\n/g;

/** Waits so that what follows does not straddle two of the limit's windows (whole minutes). */
async function startOfAMinute(): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_100 - intoMinute));
}

describe("requests over the rate limit", () => {
  it("are answered 429, logged once per client IP with the count, and counted on /metrics", async () => {
    // Prepare
    const dir = scratchDirectory("steward-rate-limited-");
    const ports = { ingest: await freePort(), rest: await freePort(), scrape: await freePort() };
    writeFileSync(
      join(dir, "steward.yaml"),
      `Service:
  auditEvents:
    enable: true
    host: 127.0.0.1
    port: ${ports.ingest}
    rateLimit:
      maxPerMinute: 2
  restServer:
    enable: true
    host: 127.0.0.1
    port: ${ports.rest}
    rateLimit:
      maxPerMinute: 2
  scrapeEndpoint:
    enable: true
    host: 127.0.0.1
    port: ${ports.scrape}
`,
    );
    const proc = await startStewardIn(dir);
    await startOfAMinute();

    // Act
    const statuses = { ingest: [] as number[], rest: [] as number[] };
    for (let i = 0; i < 6; i++) {
      statuses.ingest.push((await fetch(`http://127.0.0.1:${ports.ingest}/api/v1/test-connection`)).status);
      statuses.rest.push((await fetch(`http://127.0.0.1:${ports.rest}/v4/ping`)).status);
    }
    const metrics = await (await fetch(`http://127.0.0.1:${ports.scrape}/metrics`)).text();

    // Assess
    const limited = [200, 200, 429, 429, 429, 429];
    expect(statuses).toEqual({ ingest: limited, rest: limited });
    const lines = proc.output().match(REFUSED_LINE) ?? [];
    expect(lines.map((line) => line.match(/\[(.*?)\]/)?.[1])).toEqual(["audit-ingest", "rest"]);
    for (const line of lines) {
      expect(line).toMatch(/ ip=127\.0\.0\.1 /);
      expect(line).toMatch(/ refusedRequests=1 /);
      expect(line).toMatch(/ maxPerMinute=2/);
    }
    expect(metrics).toContain('steward_http_rate_limited_total{listener="ingest"} 4\n');
    expect(metrics).toContain('steward_http_rate_limited_total{listener="rest"} 4\n');
  }, 40_000);

  it("on the status page are answered 429, logged once per client IP with the count, and counted as config_ui", async () => {
    // Prepare
    const dir = scratchDirectory("steward-rate-limited-ui-");
    const ports = { ui: await freePort(), scrape: await freePort() };
    writeFileSync(
      join(dir, "steward.yaml"),
      `Service:
  auditEvents:
    enable: false
  restServer:
    enable: false
  configVisualisation:
    enable: true
    host: 127.0.0.1
    port: ${ports.ui}
  scrapeEndpoint:
    enable: true
    host: 127.0.0.1
    port: ${ports.scrape}
`,
    );
    const proc = await startStewardIn(dir);
    await startOfAMinute();

    // Act: 300 answered, then 5 over the limit
    const statuses: number[] = [];
    for (let i = 0; i < 305; i++) statuses.push((await fetch(`http://127.0.0.1:${ports.ui}/status`)).status);
    const metrics = await (await fetch(`http://127.0.0.1:${ports.scrape}/metrics`)).text();

    // Assess
    expect(statuses.filter((status) => status === 200)).toHaveLength(300);
    expect(statuses.slice(300)).toEqual([429, 429, 429, 429, 429]);
    const warnings = proc
      .output()
      .split("\n")
      .filter((line) => line.includes(" warn: ") && /rate limit/i.test(line));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /warn: \[config-ui\] Client over the rate limit: its requests are refused with 429 /,
    );
    expect(warnings[0]).toMatch(/ ip=127\.0\.0\.1 /);
    expect(warnings[0]).toMatch(/ refusedRequests=1 /);
    expect(warnings[0]).toMatch(/ maxPerMinute=300/);
    expect(metrics).toContain('steward_http_rate_limited_total{listener="config_ui"} 5\n');
  }, 40_000);
});
