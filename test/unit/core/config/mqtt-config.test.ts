/**
 * The broker connection keys of `mqttConfig`: defaults that keep a plain, anonymous connection,
 * validation with clear messages, the cross-checks, masking and documentation.
 */
import { describe, expect, it } from "vitest";
import { documentationOf, MASK, obfuscateConfig, renderTemplate } from "../../../../core/config/index.ts";
import { envRef, parseOk, problemsOf } from "./helpers.ts";

const DEFAULTS = {
  enable: false,
  brokerHost: "localhost",
  brokerPort: 1883,
  baseTopic: "steward/",
  clientId: "",
  username: "",
  password: "",
  tls: { enable: false, caFile: "", certFile: "", keyFile: "", rejectUnauthorized: true },
  subscriptionRootTopic: "",
  taskStartTopic: "",
  taskFailureServerStatusTopic: "qliksense/butler/task_failure_server",
};

describe("mqttConfig connection defaults", () => {
  it("are a plain connection without credentials and a generated client id, when the keys are left out", () => {
    // Act
    const absent = parseOk({}).mqttConfig;
    const enabled = parseOk({ mqttConfig: { enable: true, brokerHost: "broker.example.com" } }).mqttConfig;

    // Assess
    expect(absent).toEqual(DEFAULTS);
    expect(enabled).toEqual({ ...DEFAULTS, enable: true, brokerHost: "broker.example.com" });
  });

  it("take every new key as written", () => {
    // Act
    const config = parseOk({
      mqttConfig: {
        enable: true,
        brokerPort: 8883,
        clientId: "steward-site-7",
        username: "steward",
        password: "s3cret",
        tls: {
          enable: true,
          caFile: "certs/ca.pem",
          certFile: "certs/client.pem",
          keyFile: "certs/client_key.pem",
          rejectUnauthorized: false,
        },
      },
    }).mqttConfig;

    // Assess
    expect(config).toEqual({
      ...DEFAULTS,
      enable: true,
      brokerPort: 8883,
      clientId: "steward-site-7",
      username: "steward",
      password: "s3cret",
      tls: {
        enable: true,
        caFile: "certs/ca.pem",
        certFile: "certs/client.pem",
        keyFile: "certs/client_key.pem",
        rejectUnauthorized: false,
      },
    });
  });

  it("read the password from the environment", () => {
    // Act
    const config = parseOk(
      { mqttConfig: { enable: true, username: "steward", password: envRef("MQTT_PASSWORD") } },
      { MQTT_PASSWORD: "from-env" },
    );

    // Assess
    expect(config.mqttConfig.password).toBe("from-env");
  });

  it("leave a disabled tls section unvalidated, with its defaults", () => {
    // Act
    const config = parseOk({
      mqttConfig: { enable: true, tls: { enable: false, caFile: 42, rejectUnauthorized: "<true|false>" } },
    });

    // Assess
    expect(config.mqttConfig.tls).toEqual(DEFAULTS.tls);
  });
});

describe("mqttConfig connection validation", () => {
  it("rejects values of the wrong type or form, naming each key (never echoing the password)", () => {
    // Act
    const problems = problemsOf({
      mqttConfig: {
        enable: true,
        clientId: "steward\nsite",
        username: 7,
        password: false,
        tls: { enable: true, caFile: ["ca.pem"], rejectUnauthorized: "no" },
      },
    });

    // Assess
    expect(problems).toEqual([
      "Service.mqttConfig.clientId: must not contain control characters",
      "Service.mqttConfig.password: expected string",
      "Service.mqttConfig.tls.caFile: expected string, received a list",
      'Service.mqttConfig.tls.rejectUnauthorized: expected boolean, received "no"',
      "Service.mqttConfig.username: expected string, received 7",
    ]);
  });

  it("rejects a client id longer than the protocol allows", () => {
    expect(problemsOf({ mqttConfig: { enable: true, clientId: "x".repeat(65_536) } })).toEqual([
      "Service.mqttConfig.clientId: must be at most 65535 characters",
    ]);
  });

  it("suggests the nearest key for a typo", () => {
    expect(problemsOf({ mqttConfig: { enable: true, tls: { enable: true, caFiel: "ca.pem" } } })).toEqual([
      'Service.mqttConfig.tls.caFiel: unknown key (did you mean "caFile"?)',
    ]);
  });

  it("needs a user name for a password", () => {
    expect(problemsOf({ mqttConfig: { enable: true, password: "s3cret" } })).toEqual([
      "Service.mqttConfig.username: required when mqttConfig.password is set",
    ]);
    expect(problemsOf({ mqttConfig: { enable: true, username: "steward" } })).toEqual([]);
  });

  it("needs the client certificate and its key together", () => {
    const tls = (files: Record<string, string>) => ({
      mqttConfig: { enable: true, tls: { enable: true, ...files } },
    });

    expect(problemsOf(tls({ certFile: "client.pem" }))).toEqual([
      "Service.mqttConfig.tls.keyFile: required when mqttConfig.tls.certFile is set",
    ]);
    expect(problemsOf(tls({ keyFile: "client_key.pem" }))).toEqual([
      "Service.mqttConfig.tls.certFile: required when mqttConfig.tls.keyFile is set",
    ]);
    expect(problemsOf(tls({ certFile: "client.pem", keyFile: "client_key.pem" }))).toEqual([]);
  });

  it("checks nothing while the broker is disabled", () => {
    expect(
      problemsOf({
        mqttConfig: { enable: false, password: "s3cret", tls: { enable: true, certFile: "c.pem" } },
      }),
    ).toEqual([]);
  });
});

describe("mqttConfig connection keys in masking and documentation", () => {
  it("masks the password entirely and keeps the first characters of the user name and files", () => {
    // Prepare
    const service = {
      mqttConfig: {
        enable: true,
        username: "steward-user",
        password: "SECRET-mqtt-password",
        clientId: "steward-site-7",
        tls: { enable: true, caFile: "/etc/steward/mqtt-ca.pem" },
      },
    };

    // Act
    const raw = obfuscateConfig({ Service: service }).Service.mqttConfig;
    const parsed = obfuscateConfig(parseOk(service)).mqttConfig;

    // Assess
    for (const masked of [raw, parsed]) {
      expect(masked.password).toBe(MASK);
      expect(masked.username).toBe(`ste${MASK}`);
      expect(masked.tls.caFile).toBe(`/etc/stewa${MASK}`);
      expect(JSON.stringify(masked)).not.toContain("SECRET");
    }
  });

  it("documents each key in the template, the password as a secret", () => {
    // Act
    const template = renderTemplate();

    // Assess
    for (const key of ["clientId", "username", "password"]) {
      expect(documentationOf(["mqttConfig", key])).toBeDefined();
    }
    for (const key of ["enable", "caFile", "certFile", "keyFile", "rejectUnauthorized"]) {
      expect(documentationOf(["mqttConfig", "tls", key])).toBeDefined();
    }
    expect(documentationOf(["mqttConfig", "password"])).toContain(`secret; use ${envRef("ENV_NAME")}`);
    expect(template).toContain("      rejectUnauthorized: true\n");
  });
});
