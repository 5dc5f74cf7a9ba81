/**
 * Every local listener of `steward start` (ingest API, REST API, config UI and status page,
 * scrape endpoint, container health check) behind its guards, with the time limits as shipped:
 * a request naming a Host the listener does not answer (a page whose name was rebound to
 * 127.0.0.1) gets 421 while loopback names, addresses and the listed names are answered; a client
 * whose headers dribble in is cut after 10 s; a connection over `auditEvents.maxConnections` is
 * closed at once. Each refusal is counted in `steward_http_refused_total` and logged.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../helpers/free-port.ts";
import { parsePrometheusText, sampleValue } from "../../helpers/prometheus-text.ts";
import { exchange, openRaw, rawRequest, statusOf } from "../../helpers/raw-connection.ts";
import { type StewardProcess, spawnSteward } from "../../helpers/steward-process.ts";

const TOKEN = "rest-token-4Jq9";

let dir: string;
let steward: StewardProcess;
let ports: { ingest: number; rest: number; ui: number; scrape: number; health: number };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "steward-guards-"));
  ports = {
    ingest: await freePort(),
    rest: await freePort(),
    ui: await freePort(),
    scrape: await freePort(),
    health: await freePort(),
  };
  writeFileSync(
    join(dir, "steward.yaml"),
    `Service:
  auditEvents:
    port: ${ports.ingest}
    maxConnections: 3
    allowedHosts: [qlik-ops.corp.local]
    queue: { durable: false }
  restServer:
    port: ${ports.rest}
    apiToken: ${TOKEN}
  configVisualisation:
    enable: true
    host: 127.0.0.1
    port: ${ports.ui}
  scrapeEndpoint:
    enable: true
    port: ${ports.scrape}
  containerHealthCheck:
    enable: true
    port: ${ports.health}
`,
  );
  steward = spawnSteward(["start", "--config", "steward.yaml"], { cwd: dir });
  await steward.waitFor(/steward ready/, 30_000);
}, 60_000);

afterAll(async () => {
  steward?.child.kill("SIGTERM");
  await steward?.exited(15_000);
  rmSync(dir, { recursive: true, force: true });
});

/** Each listener: its label in the metric, its port, and a GET it answers with 200. */
const LISTENERS = [
  ["ingest", "ingest", "/documentation/json", {}],
  ["rest", "rest", "/v4/ping", { Authorization: `Bearer ${TOKEN}` }],
  ["config_ui", "ui", "/status", {}],
  ["scrape", "scrape", "/metrics", {}],
  ["health", "health", "/health", {}],
] as const;

async function refusedTotals(): Promise<Record<string, number | undefined>> {
  const metrics = parsePrometheusText(await (await fetch(`http://127.0.0.1:${ports.scrape}/metrics`)).text());
  const totals: Record<string, number | undefined> = {};
  for (const [label] of LISTENERS) {
    for (const reason of ["host", "timeout", "connections"]) {
      totals[`${label}.${reason}`] = sampleValue(metrics, "steward_http_refused_total", {
        listener: label,
        reason,
      });
    }
  }
  return totals;
}

describe("the listeners of steward start", () => {
  it.each(LISTENERS)(
    "%s answers 127.0.0.1:port and localhost, and refuses Host: attacker.example with 421",
    async (_label, key, path, headers) => {
      const port = ports[key];

      const byAddress = await exchange(port, rawRequest("GET", path, `127.0.0.1:${port}`, "", headers));
      const byLocalhost = await exchange(port, rawRequest("GET", path, "localhost", "", headers));
      const rebound = await exchange(port, rawRequest("GET", path, `attacker.example:${port}`, "", headers));

      expect(statusOf(byAddress)).toBe(200);
      expect(statusOf(byLocalhost)).toBe(200);
      expect(statusOf(rebound)).toBe(421);
      expect(rebound).toContain(`Host attacker.example:${port} is not a name this listener answers`);
    },
  );

  it("answers a name listed in auditEvents.allowedHosts, as a proxy in front of it passes it on", async () => {
    const answer = await exchange(
      ports.ingest,
      rawRequest("GET", "/documentation/json", "qlik-ops.corp.local:8181"),
    );

    expect(statusOf(answer)).toBe(200);
  });

  it("counts each refused Host by listener, and names where to add the name at WARN", async () => {
    const totals = await refusedTotals();

    for (const [label] of LISTENERS) expect(totals[`${label}.host`], label).toBeGreaterThanOrEqual(1);
    expect(steward.output()).toMatch(
      /REST API: requests naming a Host this listener does not answer are refused with 421 .*add attacker\.example to restServer\.allowedHosts/,
    );
    expect(steward.output()).toMatch(/add attacker\.example to auditEvents\.allowedHosts/);
  });

  it("cuts a client whose headers dribble in on the ingest and REST APIs with 408 after 10 s", async () => {
    const ingest = await openRaw(ports.ingest);
    const rest = await openRaw(ports.rest);
    const request = `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${"a".repeat(100)}`;

    ingest.dribble(request, 500);
    rest.dribble(request, 500);
    const [ingestMs, restMs] = await Promise.all([ingest.closed, rest.closed]);

    for (const [connection, ms] of [
      [ingest, ingestMs],
      [rest, restMs],
    ] as const) {
      expect(ms).toBeGreaterThanOrEqual(9_900);
      expect(ms).toBeLessThan(12_500);
      expect(statusOf(connection.received())).toBe(408);
    }
    const totals = await refusedTotals();
    expect(totals["ingest.timeout"]).toBe(1);
    expect(totals["rest.timeout"]).toBe(1);
  }, 30_000);

  it("closes a connection over auditEvents.maxConnections at once, and counts it", async () => {
    const held = await Promise.all([openRaw(ports.ingest), openRaw(ports.ingest), openRaw(ports.ingest)]);

    const over = await openRaw(ports.ingest);
    const closedAfterMs = await over.closed;
    for (const connection of held) connection.socket.destroy();

    expect(closedAfterMs).toBeLessThan(1000);
    expect(over.received()).toBe("");
    expect((await refusedTotals())["ingest.connections"]).toBe(1);
    expect(steward.output()).toContain(
      "Audit ingest API: refused connections over its cap of 3 open connections; raise auditEvents.maxConnections",
    );
  });
});
