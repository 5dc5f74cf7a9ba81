/**
 * SIGTERM while the platform does not answer: `steward start` polls engine health, proxy sessions
 * and the repository's app names of a server that accepts the TLS connection, reads each request
 * and never answers. The calls in flight are given up at the signal instead of being waited for
 * (their own timeouts are 5 s for health and sessions and `platform.timeoutMs`, 30 s by default,
 * for app names), so the pollers take nothing of the shutdown's 10 s.
 */

import { writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import type { AddressInfo, Socket } from "node:net";
import { join } from "node:path";
import { createServer } from "node:tls";
import { describe, expect, it, onTestFinished } from "vitest";
import { createTestPki, type TestPki } from "../../fixtures/platform/pki.ts";
import { until } from "../../helpers/eventually.ts";
import { expectNoCrash, logLines } from "../../helpers/ingest-client.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";

/**
 * Well under the 10 s: nothing else in this configuration waits at shutdown, so the process ends
 * as soon as the pollers do. Waiting for the unanswered calls took 6 s here (2 s per poller).
 */
const EXIT_WITHIN_MS = 2000;

/** A platform server over mutual TLS that takes every request and answers none. */
async function silentPlatform(): Promise<{ port: number; pki: TestPki; requests: () => number }> {
  const pki = await createTestPki();
  const [cert, key, ca] = await Promise.all([
    readFile(pki.serverCertPath),
    readFile(pki.serverKeyPath),
    readFile(pki.caPath),
  ]);
  const sockets: Socket[] = [];
  let requests = 0;
  const server = createServer({ cert, key, ca, requestCert: true }, (socket) => {
    sockets.push(socket);
    socket.on("data", (chunk: Buffer) => {
      requests += chunk.toString("latin1").match(/^(GET|POST) /gm)?.length ?? 0;
    });
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(() => {
    for (const socket of sockets) socket.destroy();
    server.close();
  });
  return { port: (server.address() as AddressInfo).port, pki, requests: () => requests };
}

describe("SIGTERM while the platform does not answer", () => {
  it("gives up the pollers' calls in flight and exits 0 at once", async () => {
    // Prepare: health, sessions and app names all waiting on the silent server
    const platform = await silentPlatform();
    const dir = scratchDirectory("steward-silent-platform-");
    const address = `127.0.0.1:${platform.port}`;
    writeFileSync(
      join(dir, "steward.yaml"),
      `Service:
  auditEvents:
    enable: false
  restServer:
    enable: false
  cert:
    clientCert: ${platform.pki.clientCertPath}
    clientCertKey: ${platform.pki.clientKeyPath}
    clientCertCA: ${platform.pki.caPath}
  platform:
    repositoryPort: ${platform.port}
  appNames:
    enableAppNameExtract: true
    hostIP: 127.0.0.1
  userSessions:
    enableSessionExtract: true
    pollingInterval: 1000
  serversToMonitor:
    pollingInterval: 1000
    servers:
      - host: ${address}
        serverName: silent
        serverDescription: never answers
        userSessions:
          enable: true
          host: ${address}
          virtualProxies:
            - virtualProxy: /
`,
    );
    const steward = await startStewardIn(dir);
    // The app-name fetch and the health call are in flight (sessions wait for the one connection).
    await until(() => platform.requests() >= 2, 10_000, 20);

    // Act
    steward.child.kill("SIGTERM");
    const exit = await steward.exited(20_000);

    // Assess
    const output = steward.output();
    console.log(`SIGTERM with the platform silent: exit ${exit.code} after ${exit.ms} ms`);
    expect(exit.code).toBe(0);
    expect(exit.ms).toBeLessThan(EXIT_WITHIN_MS);
    const afterSignal = output.slice(output.indexOf("received SIGTERM"));
    expect(logLines(afterSignal, "warn", /./)).toEqual([]);
    expect(logLines(afterSignal, "error", /./)).toEqual([]);
    expectNoCrash(output);
  }, 60_000);
});
