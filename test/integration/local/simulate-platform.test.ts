/**
 * `steward simulate-platform` as a user runs it: throw-away certificates written on request, the
 * health check served only to a client with the certificate, a written configuration that
 * check-config accepts and that `steward start` polls, exit 0 on SIGTERM, and clear refusals.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:https";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { parseConfig } from "../../../core/config/index.ts";
import { eventually } from "../../helpers/eventually.ts";
import {
  onFreePorts,
  SIMULATED_CONFIG_FILE,
  startSimulatorForTest,
} from "../../helpers/simulator-for-test.ts";
import { spawnStewardForTest } from "../../helpers/started-steward.ts";
import { runSteward } from "../../helpers/steward-process.ts";

const STACK_LINE = /\n\s+at .+:\d+:\d+/;

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "steward-simulate-"));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

interface TlsFiles {
  ca?: string;
  cert?: string;
  key?: string;
}

/** GET over HTTPS; resolves with status and body, rejects when the connection is refused. */
function get(port: number, path: string, tls: TlsFiles): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request({ host: "127.0.0.1", port, path, ...tls }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on("error", reject)
      .end();
  });
}

describe("steward simulate-platform", () => {
  it("serves health to a client with the generated certificate only, writes a valid configuration, stops on SIGTERM", async () => {
    const { sim: proc, config } = await startSimulatorForTest(
      ["--port", "0", "--servers", "2", "--generate-certs", "--certs", "certs"],
      dir,
    );
    const ports = [...proc.output().matchAll(/^ {2}https:\/\/127\.0\.0\.1:(\d+)$/gm)].map((m) =>
      Number(m[1]),
    );
    expect(ports).toHaveLength(2);
    const [port = 0] = ports;

    const pem = (name: string) => readFileSync(join(dir, "certs", name), "utf8");
    const ca = pem("root.pem");
    const health = await get(port, "/engine/healthcheck", {
      ca,
      cert: pem("client.pem"),
      key: pem("client_key.pem"),
    });
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toMatchObject({
      mem: { committed: expect.any(Number) },
      cpu: { total: expect.any(Number) },
      version: expect.any(String),
    });
    await expect(get(port, "/engine/healthcheck", { ca })).rejects.toThrow();

    const parsed = parseConfig(config);
    expect(parsed.ok ? parsed.config.serversToMonitor.servers.map((s) => s.host) : parsed.problems).toEqual(
      ports.map((p) => `127.0.0.1:${p}`),
    );
    const checked = await runSteward(["check-config", SIMULATED_CONFIG_FILE], dir);
    expect(checked.output.trim()).toBe("ok");
    expect(checked.code).toBe(0);

    proc.child.kill("SIGTERM");
    const { code, ms } = await proc.exited();
    expect(code).toBe(0);
    expect(ms).toBeLessThan(10_000);
    expect(proc.output()).toMatch(/received SIGTERM, stopping/);
    expect(proc.output()).not.toMatch(/PRIVATE KEY/);
  }, 60_000);

  it("is polled by steward start with the written configuration", async () => {
    const { sim, config } = await startSimulatorForTest(
      ["--port", "0", "--generate-certs", "--certs", "polled"],
      dir,
    );
    // Only Steward's own listeners move (or stop), so tests run side by side.
    const { scrapePort } = await onFreePorts(config);
    writeFileSync(join(dir, "polling.yaml"), stringify(config));

    const steward = spawnStewardForTest(["start", "--config", "polling.yaml"], { cwd: dir });
    await steward.waitFor(/steward ready/, 30_000);
    let metrics = "";
    const polled = await eventually(
      async () => {
        metrics = await (await fetch(`http://127.0.0.1:${scrapePort}/metrics`)).text();
        return (
          /^steward_health_polls_total\{outcome="succeeded"\} [1-9]/m.test(metrics) &&
          /^steward_user_session_total\{.*server_name="simulated-1".*\} \d+$/m.test(metrics)
        );
      },
      15_000,
      200,
    );
    expect(polled, `no polled values in:\n${metrics}\noutput:\n${steward.output()}`).toBe(true);
    expect(steward.output()).toMatch(/app names fetched .*apps=\d+/);

    steward.child.kill("SIGTERM");
    sim.child.kill("SIGINT");
    expect((await steward.exited()).code).toBe(0);
    expect((await sim.exited()).code).toBe(0);
  }, 60_000);

  it("without certificates exits 1 with a hint to add --generate-certs", async () => {
    const { code, output } = await runSteward(["simulate-platform", "--certs", "nowhere"], dir);
    expect(code).toBe(1);
    expect(output).toContain(`certificate files missing in ${join(dir, "nowhere")}: root.pem,`);
    expect(output).toContain("add --generate-certs");
    expect(output).not.toMatch(STACK_LINE);
  });

  it("exits 1 naming the port when it is taken, without a stack trace", async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const { port } = blocker.address() as { port: number };
    try {
      const { code, output } = await runSteward(
        ["simulate-platform", "--port", String(port), "--generate-certs", "--certs", "taken"],
        dir,
      );
      expect(code).toBe(1);
      expect(output).toContain(`cannot listen on 127.0.0.1:${port} (EADDRINUSE)`);
      expect(output).not.toMatch(STACK_LINE);
    } finally {
      blocker.close();
    }
  });

  it("refuses a bad option with the usage and exit 1", async () => {
    const { code, output } = await runSteward(["simulate-platform", "--port", "http"], dir);
    expect(code).toBe(1);
    expect(output).toMatch(/--port must be a whole number from 0 to 65535/);
    expect(output).toMatch(/^Usage: steward/m);
  });
});
