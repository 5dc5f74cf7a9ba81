/**
 * A browser opens connections ahead of the requests it expects to make and may keep them unused
 * for minutes (speculative connections). `steward start` with the ingest API, the REST API and the
 * status page, each holding such a connection (opened, nothing sent), stops at SIGTERM as promptly
 * as without them and exits 0. Before, each listener's stop waited for its connection until the
 * shutdown's last deadline, and Steward exited 1 after 9.5 s saying its shutdown did not finish.
 */
import { writeFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { freePort } from "../../helpers/free-port.ts";
import { expectNoCrash, logLines } from "../../helpers/ingest-client.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";

/** Well under the shutdown's 9.5 s: nothing in this configuration has work left to finish. */
const EXIT_WITHIN_MS = 5_000;

function config(ports: { ingest: number; rest: number; ui: number }): string {
  return `Service:
  auditEvents:
    host: 127.0.0.1
    port: ${ports.ingest}
  restServer:
    enable: true
    host: 127.0.0.1
    port: ${ports.rest}
  configVisualisation:
    enable: true
    host: 127.0.0.1
    port: ${ports.ui}
`;
}

/** A connection to `port` that has opened and sends nothing, as a browser's speculative one. */
async function openUnspoken(port: number): Promise<Socket> {
  const socket = connect(port, "127.0.0.1");
  socket.on("error", () => undefined);
  await new Promise((resolve) => socket.once("connect", resolve));
  onTestFinished(() => {
    socket.destroy();
  });
  return socket;
}

describe("steward start at SIGTERM, with connections that have sent no request", () => {
  it("closes them and exits 0 as promptly as without them", async () => {
    // Prepare
    const dir = scratchDirectory("steward-shutdown-unspoken-");
    const ports = { ingest: await freePort(), rest: await freePort(), ui: await freePort() };
    writeFileSync(join(dir, "steward.yaml"), config(ports));
    const steward = await startStewardIn(dir);
    const sockets = await Promise.all([ports.ingest, ports.rest, ports.ui].map(openUnspoken));
    const closed = sockets.map((socket) => new Promise((resolve) => socket.once("close", resolve)));

    // Act
    steward.child.kill("SIGTERM");
    const exit = await steward.exited(20_000);

    // Assess
    const output = steward.output();
    console.log(`SIGTERM with a silent connection on each listener: exit ${exit.code} after ${exit.ms} ms`);
    expect(exit.code).toBe(0);
    expect(exit.ms).toBeLessThan(EXIT_WITHIN_MS);
    expect(logLines(output, "error", /shutdown did not finish/)).toEqual([]);
    await Promise.all(closed);
    expectNoCrash(output);
  }, 60_000);
});
