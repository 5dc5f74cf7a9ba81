/**
 * App names end to end, as a user runs them: `steward start` with `appNames` and `userEvents`
 * switched on, pointed at the simulated platform (mutual TLS, certificates under the working
 * directory) and an aedes broker; a user event for a known app must reach the broker with the
 * app's name, one for an unknown app with the placeholder. No time-series DB, no external broker.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_SALES, APP_UNKNOWN } from "../../../local/simulated-platform/catalogue.ts";
import { startTestPlatform, type TestPlatform } from "../../fixtures/platform/test-platform.ts";
import { type AedesBroker, startAedes } from "../../helpers/aedes-broker.ts";
import { eventually } from "../../helpers/eventually.ts";
import { freePort } from "../../helpers/free-port.ts";
import { sendDatagrams } from "../../helpers/send-datagrams.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";

/** Polls every 50 ms (the process runs on real time). */

let sim: TestPlatform;
let broker: AedesBroker;
let dir: string;

beforeAll(async () => {
  [sim, broker] = await Promise.all([startTestPlatform(), startAedes()]);
  dir = mkdtempSync(join(tmpdir(), "steward-app-names-"));
  // Relative certificate paths in the config resolve from the working directory.
  mkdirSync(join(dir, "certs"));
  copyFileSync(sim.pki.clientCertPath, join(dir, "certs", "client.pem"));
  copyFileSync(sim.pki.clientKeyPath, join(dir, "certs", "client_key.pem"));
  copyFileSync(sim.pki.caPath, join(dir, "certs", "root.pem"));
});

afterAll(async () => {
  await Promise.all([sim?.stop(), broker?.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

function configYaml(userPort: number): string {
  return `Service:
  restServer:
    enable: false
  auditEvents:
    enable: false
  platform:
    repositoryPort: ${sim.connection().repositoryPort}
    rejectUnauthorized: true
    timeoutMs: 5000
  cert:
    clientCert: certs/client.pem
    clientCertKey: certs/client_key.pem
    clientCertCA: certs/root.pem
  appNames:
    enableAppNameExtract: true
    extractInterval: 60000
    hostIP: localhost
  mqttConfig:
    enable: true
    brokerHost: 127.0.0.1
    brokerPort: ${broker.port}
  userEvents:
    enable: true
    udpServerConfig:
      serverHost: 127.0.0.1
      portUserActivityEvents: ${userPort}
    sendToMQTT:
      enable: true
`;
}

const userEvent = (appId: string) =>
  `/qseow-proxy-connection/;pro2-win1;Open connection;userdir;user3;AppAccess;/app/${appId}?reloaduri=https...;UserAgent: Mozilla/5.0 Firefox/120.0`;

describe("app names through `steward start`", () => {
  it("publishes a user event with the app's name from the repository, fetched before the UDP listener opens", async () => {
    // Prepare
    sim.reset();
    const userPort = await freePort();
    writeFileSync(join(dir, "steward.yaml"), configYaml(userPort));
    const subscriber = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`);
    const payloads: { appId?: string; appName?: string }[] = [];
    subscriber.on("message", (_topic, payload) => payloads.push(JSON.parse(payload.toString("utf8"))));
    await subscriber.subscribeAsync("qliksense/userevent");
    const proc = await startStewardIn(dir);

    // Act
    await sendDatagrams(userPort, [userEvent(APP_SALES), userEvent(APP_UNKNOWN)]);
    const arrived = await eventually(() => payloads.length >= 2, 5000);
    proc.child.kill("SIGTERM");
    const { code } = await proc.exited();
    await subscriber.endAsync();

    // Assess
    expect(arrived, `events did not reach the broker; process output:\n${proc.output()}`).toBe(true);
    expect(code).toBe(0);
    expect(payloads.map(({ appId, appName }) => ({ appId, appName }))).toEqual([
      { appId: APP_SALES, appName: "Sales dashboard" },
      { appId: APP_UNKNOWN, appName: "<unknown app name>" },
    ]);
    const output = proc.output();
    expect(output.indexOf("app names fetched")).toBeGreaterThan(-1);
    expect(output.indexOf("app names fetched")).toBeLessThan(
      output.indexOf("User events UDP server listening"),
    );
    expect(output).not.toMatch(/have no effect/);
    expect(sim.repository.calls.map((call) => [call.path, call.user, call.clientCertCn])).toEqual([
      ["/qrs/app", "UserDirectory=Internal;UserId=sa_repository", "QlikClient"],
    ]);
  }, 30_000);
});
