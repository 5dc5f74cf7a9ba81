/**
 * Whether the process builds its one broker connection: only when something publishes, which
 * the configuration decides once for every part. Built here without connecting, so no broker is
 * needed (the connection's life against mosquitto is test/integration/local/broker-connection.test.ts).
 */
import { describe, expect, it } from "vitest";
import { type Config, parseConfig } from "../../../core/config/index.ts";
import { brokerConnection } from "../../../local/broker-connection.ts";
import { recordingLogger } from "../../helpers/recording-logger.ts";

const mqttConfig = { enable: true, brokerHost: "127.0.0.1", brokerPort: 1883 };

function configWith(service: Record<string, unknown>): Config {
  const parsed = parseConfig({ Service: { mqttConfig, ...service } }, {});
  if (!parsed.ok) expect.fail(parsed.problems.map((p) => `${p.path}: ${p.message}`).join("\n"));
  return parsed.config;
}

const built = (config: Config) => brokerConnection(config, recordingLogger(), process.cwd()) !== undefined;

describe("brokerConnection: built only when something publishes", () => {
  it("is not built when session extraction is on but no server is polled", () => {
    expect(built(configWith({ userSessions: { enableSessionExtract: true } }))).toBe(false);
  });

  it("is built when a server's health is polled (its answers go to the broker)", () => {
    const servers = [{ host: "sense1.example.com:4747", serverName: "sense1" }];

    expect(built(configWith({ serversToMonitor: { servers } }))).toBe(true);
  });

  it("is built for a UDP pipeline that writes to the broker, and not when its events go elsewhere", () => {
    const toBroker = { enable: true, sendToMQTT: { enable: true } };
    const elsewhere = { enable: true, sendToMQTT: { enable: false } };

    expect(built(configWith({ userEvents: toBroker }))).toBe(true);
    expect(built(configWith({ userEvents: elsewhere }))).toBe(false);
    expect(
      built(
        configWith({ logEvents: { source: { engine: { enable: true } }, sendToMQTT: { enable: true } } }),
      ),
    ).toBe(true);
    expect(built(configWith({ logEvents: { sendToMQTT: { enable: true } } }))).toBe(false);
  });
});

describe("brokerConnection for task events", () => {
  const taskEvents = { enable: true };
  const platform = { host: "sense1.example.com" };

  it("is built for the listener's status topic alone, and not when that topic is set empty", () => {
    expect(built(configWith({ platform, taskEvents }))).toBe(true);
    expect(
      built(
        configWith({ platform, taskEvents, mqttConfig: { ...mqttConfig, taskFailureServerStatusTopic: "" } }),
      ),
    ).toBe(false);
  });
});
