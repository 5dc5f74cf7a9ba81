/**
 * The broker connection settings of `mqttConfig` against real mosquitto brokers on loopback:
 * user name and password, TLS with the broker's CA (and a wrong one), a client certificate, and
 * the client id. Each broker client is built from a parsed config through buildBrokerClient, the path
 * both runtimes take, so the test covers config → options → connection. A refused connection
 * fails the publish with UpstreamError and its reason within the connect wait, never a hang, and
 * the password shows up in no log line or error.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBrokerClient } from "../../../../core/adapters/outbound-clients.ts";
import { type Config, parseConfig } from "../../../../core/config/index.ts";
import type { BrokerClient } from "../../../../core/ports.ts";
import { UpstreamError } from "../../../../core/upstream-error.ts";
import { createTestPki, type TestPki } from "../../../fixtures/platform/pki.ts";
import { type Mosquitto, skipWithoutMosquitto, startMosquitto } from "../../../helpers/mosquitto.ts";
import { type RecordingLogger, recordingLogger } from "../../../helpers/recording-logger.ts";
import { timed } from "../../../helpers/timed.ts";

const skip = skipWithoutMosquitto();

const USER = "steward";
const PASSWORD = "pa55-Word-SECRET";
/** Long enough for a connection on a busy machine; a refused one fails only after it. */
const CONNECT_WAIT_MS = 1500;
const SLACK_MS = 1500;

let pki: TestPki;
let authBroker: Mosquitto;
let tlsBroker: Mosquitto;
let clientCertBroker: Mosquitto;
const brokerClients: BrokerClient[] = [];

beforeAll(async () => {
  if (skip) return;
  pki = await createTestPki();
  const serverTls = { caPath: pki.caPath, certPath: pki.serverCertPath, keyPath: pki.serverKeyPath };
  [authBroker, tlsBroker, clientCertBroker] = await Promise.all([
    startMosquitto({ users: { [USER]: PASSWORD, other: "other-password" } }),
    startMosquitto({ tls: serverTls, users: { [USER]: PASSWORD } }),
    startMosquitto({ tls: { ...serverTls, requireCertificate: true } }),
  ]);
});

afterAll(async () => {
  for (const brokerClient of brokerClients) await brokerClient.close();
  await Promise.all([authBroker?.stop(), tlsBroker?.stop(), clientCertBroker?.stop()]);
  await pki?.remove();
});

function configFor(mqttConfig: Record<string, unknown>): Config {
  const parsed = parseConfig({ Service: { mqttConfig: { enable: true, ...mqttConfig } } }, {});
  if (!parsed.ok) expect.fail(parsed.problems.map((p) => `${p.path}: ${p.message}`).join("\n"));
  return parsed.config;
}

function brokerClientFor(
  mqttConfig: Record<string, unknown>,
  cwd?: string,
): { brokerClient: BrokerClient; logger: RecordingLogger } {
  const logger = recordingLogger();
  const brokerClient = buildBrokerClient(configFor(mqttConfig), logger, {
    connectWaitMs: CONNECT_WAIT_MS,
    ...(cwd === undefined ? {} : { cwd }),
  });
  brokerClients.push(brokerClient);
  return { brokerClient, logger };
}

const connectedTo = (logger: RecordingLogger) =>
  logger.entries.filter((entry) => entry.message === "Connected to MQTT broker").map((e) => e.fields?.broker);

describe.skipIf(skip)("mqttConfig user name and password (mosquitto password file)", () => {
  it("publishes with the right user name and password, and the broker sees that user", async () => {
    const { brokerClient, logger } = brokerClientFor({
      brokerHost: "127.0.0.1",
      brokerPort: authBroker.port,
      username: USER,
      password: PASSWORD,
    });

    await brokerClient.publish("steward/auth", "hello");

    expect(connectedTo(logger)).toEqual([`mqtt://127.0.0.1:${authBroker.port}`]);
    expect(await authBroker.log()).toContain(`u'${USER}'`);
  });

  it.each([
    ["a wrong password", { username: USER, password: "wrong-password" }],
    ["no credentials", {}],
  ])(
    "refuses the publish with the broker's reason for %s, within the connect wait",
    async (_, credentials) => {
      const { brokerClient, logger } = brokerClientFor({
        brokerHost: "127.0.0.1",
        brokerPort: authBroker.port,
        ...credentials,
      });

      const { error, elapsedMs } = await timed(brokerClient.publish("steward/auth", "refused"));

      expect(error).toBeInstanceOf(UpstreamError);
      expect((error as Error).message).toMatch(
        new RegExp(
          `^Not connected to the MQTT broker at mqtt://127\\.0\\.0\\.1:${authBroker.port} \\(Connection refused: (Not authorized|Bad username or password)\\)$`,
        ),
      );
      expect(elapsedMs).toBeLessThan(CONNECT_WAIT_MS + SLACK_MS);
      expect(logger.at("warn").map((entry) => entry.message)).toContain("MQTT client error");
    },
  );

  it("never writes the password into a log line or an error", async () => {
    const wrong = "wrong-SECRET-password";
    const good = brokerClientFor({
      brokerHost: "127.0.0.1",
      brokerPort: authBroker.port,
      username: USER,
      password: PASSWORD,
    });
    const bad = brokerClientFor({
      brokerHost: "127.0.0.1",
      brokerPort: authBroker.port,
      username: USER,
      password: wrong,
    });

    await good.brokerClient.publish("steward/auth", "m");
    const { error } = await timed(bad.brokerClient.publish("steward/auth", "m"));

    const written = JSON.stringify([
      good.logger.entries,
      bad.logger.entries,
      String(error),
      (error as Error).stack,
    ]);
    expect(written).not.toContain(PASSWORD);
    expect(written).not.toContain(wrong);
    expect(written).not.toContain("SECRET");
  });
});

describe.skipIf(skip)("mqttConfig.tls (mqtts://, server certificate for localhost and 127.0.0.1)", () => {
  const tlsConfig = (tls: Record<string, unknown>) => ({
    brokerHost: "localhost",
    brokerPort: tlsBroker.port,
    username: USER,
    password: PASSWORD,
    tls: { enable: true, ...tls },
  });

  it("publishes over TLS with the broker's CA file, a relative path resolved from the working directory", async () => {
    const { brokerClient, logger } = brokerClientFor(tlsConfig({ caFile: "root.pem" }), pki.dir);

    await brokerClient.publish("steward/tls", "hello");

    expect(connectedTo(logger)).toEqual([`mqtts://localhost:${tlsBroker.port}`]);
  });

  it("checks the certificate against an IP address too", async () => {
    const { brokerClient } = brokerClientFor({
      ...tlsConfig({ caFile: pki.caPath }),
      brokerHost: "127.0.0.1",
    });

    await expect(brokerClient.publish("steward/tls", "by address")).resolves.toBeUndefined();
  });

  it("refuses the publish with the certificate error when the CA file is not the broker's", async () => {
    const { brokerClient } = brokerClientFor(tlsConfig({ caFile: pki.strangerCertPath }));

    const { error, elapsedMs } = await timed(brokerClient.publish("steward/tls", "untrusted"));

    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as Error).message).toMatch(
      new RegExp(
        `^Not connected to the MQTT broker at mqtts://localhost:${tlsBroker.port} \\(.*certificate.*\\)$`,
      ),
    );
    expect(elapsedMs).toBeLessThan(CONNECT_WAIT_MS + SLACK_MS);
  });

  it("publishes to that untrusted broker with rejectUnauthorized: false", async () => {
    const { brokerClient } = brokerClientFor(
      tlsConfig({ caFile: pki.strangerCertPath, rejectUnauthorized: false }),
    );

    await expect(brokerClient.publish("steward/tls", "trusted anyway")).resolves.toBeUndefined();
  });

  it("refuses a plain MQTT connection to the TLS listener", async () => {
    const { brokerClient } = brokerClientFor({ ...tlsConfig({}), tls: { enable: false } });

    const { error, elapsedMs } = await timed(brokerClient.publish("steward/tls", "plain"));

    expect(error).toBeInstanceOf(UpstreamError);
    expect(elapsedMs).toBeLessThan(CONNECT_WAIT_MS + SLACK_MS);
  });
});

describe.skipIf(skip)("mqttConfig.tls client certificate (broker with require_certificate)", () => {
  const base = () => ({
    brokerHost: "localhost",
    brokerPort: clientCertBroker.port,
    tls: { enable: true, caFile: pki.caPath },
  });

  it("publishes with the client certificate and key files", async () => {
    const config = base();
    const { brokerClient } = brokerClientFor({
      ...config,
      tls: { ...config.tls, certFile: pki.clientCertPath, keyFile: pki.clientKeyPath },
    });

    await expect(brokerClient.publish("steward/client-cert", "m")).resolves.toBeUndefined();
  });

  it("refuses the publish without a client certificate", async () => {
    const { brokerClient } = brokerClientFor(base());

    const { error, elapsedMs } = await timed(brokerClient.publish("steward/client-cert", "m"));

    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as Error).message).toMatch(
      /^Not connected to the MQTT broker at mqtts:.*certificate required/,
    );
    expect(elapsedMs).toBeLessThan(CONNECT_WAIT_MS + SLACK_MS);
  });
});

describe.skipIf(skip)("mqttConfig.clientId", () => {
  it("is the client id the broker sees", async () => {
    const { brokerClient } = brokerClientFor({
      brokerHost: "127.0.0.1",
      brokerPort: authBroker.port,
      username: USER,
      password: PASSWORD,
      clientId: "steward-site-7",
    });

    await brokerClient.publish("steward/id", "m");

    expect(await authBroker.log()).toMatch(/New client connected from 127\.0\.0\.1:\d+ as steward-site-7 /);
  });

  it("is generated by the library when left empty", async () => {
    const { brokerClient } = brokerClientFor({
      brokerHost: "127.0.0.1",
      brokerPort: authBroker.port,
      username: "other",
      password: "other-password",
    });

    await brokerClient.publish("steward/id", "m");

    expect(await authBroker.log()).toMatch(/ as mqttjs_[0-9a-f]+ \(p2, c1, k60, u'other'\)/);
  });
});
