/** mqttConfig → broker client options: defaults add nothing, TLS files are read relative to cwd. */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { brokerUrl } from "../../../../core/adapters/broker-url.ts";
import { mqttBrokerClientOptions } from "../../../../core/adapters/mqtt-options.ts";
import { BrokerTlsFileError } from "../../../../core/messaging/errors.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { parseOk } from "../config/helpers.ts";

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "steward-mqtt-options-"));
  await writeFile(join(dir, "ca.pem"), "CA PEM");
  await writeFile(join(dir, "client.pem"), "CLIENT PEM");
  await writeFile(join(dir, "client_key.pem"), "KEY PEM");
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const mqttConfig = (section: Record<string, unknown>) =>
  parseOk({ mqttConfig: { enable: true, ...section } }).mqttConfig;

describe("mqttBrokerClientOptions", () => {
  it("gives host and port only, for a config without the connection keys", () => {
    // Act
    const options = mqttBrokerClientOptions(mqttConfig({}), { logger: recordingLogger(), cwd: dir });

    // Assess
    expect(options).toEqual({ brokerHost: "localhost", brokerPort: 1883, logger: expect.anything() });
  });

  it("passes client id and credentials, and reads the TLS files relative to cwd", () => {
    // Act
    const options = mqttBrokerClientOptions(
      mqttConfig({
        brokerPort: 8883,
        clientId: "steward-site-7",
        username: "steward",
        password: "s3cret",
        tls: { enable: true, caFile: "ca.pem", certFile: "client.pem", keyFile: join(dir, "client_key.pem") },
      }),
      { logger: recordingLogger(), cwd: dir },
    );

    // Assess
    const { logger: _, tls, ...rest } = options;
    expect(rest).toEqual({
      brokerHost: "localhost",
      brokerPort: 8883,
      clientId: "steward-site-7",
      username: "steward",
      password: "s3cret",
    });
    expect({
      ca: tls?.ca?.toString(),
      cert: tls?.cert?.toString(),
      key: tls?.key?.toString(),
      rejectUnauthorized: tls?.rejectUnauthorized,
    }).toEqual({ ca: "CA PEM", cert: "CLIENT PEM", key: "KEY PEM", rejectUnauthorized: true });
  });

  it("uses TLS with the system's CAs when no CA file is set", () => {
    // Act
    const options = mqttBrokerClientOptions(
      mqttConfig({ tls: { enable: true, rejectUnauthorized: false } }),
      {
        logger: recordingLogger(),
        cwd: dir,
      },
    );

    // Assess
    expect(options.tls).toEqual({ rejectUnauthorized: false });
  });

  it("throws BrokerTlsFileError naming the setting and the resolved path of an unreadable file", () => {
    // Act
    const act = () =>
      mqttBrokerClientOptions(mqttConfig({ tls: { enable: true, caFile: "missing-ca.pem" } }), {
        logger: recordingLogger(),
        cwd: dir,
      });

    // Assess
    expect(act).toThrow(BrokerTlsFileError);
    expect(act).toThrow(
      new RegExp(
        `^Service\\.mqttConfig\\.tls\\.caFile: cannot read file ${join(dir, "missing-ca.pem")} \\(ENOENT\\)$`,
      ),
    );
  });
});

describe("mqttBrokerClientOptions: credentials without TLS", () => {
  it("says at WARN that the user name and password cross the network in clear", () => {
    // Prepare
    const logger = recordingLogger();

    // Act
    mqttBrokerClientOptions(
      mqttConfig({ brokerHost: "broker.example.com", username: "steward", password: "p" }),
      {
        logger,
        cwd: dir,
      },
    );

    // Assess
    expect(logger.at("warn")).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(
          /^MQTT credentials without TLS: .* in clear; set mqttConfig\.tls\.enable/,
        ),
        fields: { broker: "mqtt://broker.example.com:1883" },
      }),
    ]);
  });

  it("says nothing with TLS, or without credentials", () => {
    // Prepare
    const logger = recordingLogger();

    // Act
    mqttBrokerClientOptions(mqttConfig({ username: "steward", password: "p", tls: { enable: true } }), {
      logger,
      cwd: dir,
    });
    mqttBrokerClientOptions(mqttConfig({}), { logger, cwd: dir });

    // Assess
    expect(logger.at("warn")).toEqual([]);
  });
});

describe("brokerUrl", () => {
  it("names the scheme, host and port, with IPv6 literals in brackets", () => {
    expect(brokerUrl({ brokerHost: "broker.example.com", brokerPort: 1883 })).toBe(
      "mqtt://broker.example.com:1883",
    );
    expect(brokerUrl({ brokerHost: "::1", brokerPort: 8883, tls: {} })).toBe("mqtts://[::1]:8883");
    expect(brokerUrl({ brokerHost: "[::1]", brokerPort: 8883, tls: {} })).toBe("mqtts://[::1]:8883");
  });
});
