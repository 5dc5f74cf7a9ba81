import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkConfigFile, loadConfigFile } from "../../../../../core/adapters/local/config-file.ts";
import { ConfigError, checkConfigText } from "../../../../../core/config/index.ts";
import { envRef, lines } from "../../config/helpers.ts";

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "steward-config-"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writeConfig(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

describe("loadConfigFile: reading the YAML", () => {
  it("loads a .yml file", async () => {
    // Prepare
    const path = await writeConfig("a.yml", "Service:\n  logLevel: debug\n  auditEvents:\n    port: 9181\n");

    // Act
    const config = await loadConfigFile(path, {});

    // Assess
    expect(config.logLevel).toBe("debug");
    expect(config.auditEvents.port).toBe(9181);
  });

  it("loads an empty .yaml file with every default", async () => {
    // Prepare
    const path = await writeConfig("empty.yaml", "");

    // Act
    const config = await loadConfigFile(path, {});

    // Assess
    expect(config.restServer.port).toBe(8081);
  });

  it("rejects a .json file before reading it", async () => {
    // Prepare
    const path = await writeConfig("a.json", "{}");

    // Act
    const error = await loadConfigFile(path, {}).catch((e: unknown) => e);

    // Assess
    expect(error).toBeInstanceOf(ConfigError);
    expect(lines((error as ConfigError).problems)).toEqual([
      `${path}: the file extension must be .yaml or .yml`,
    ]);
  });

  it("reports a missing file clearly", async () => {
    // Act
    const result = await checkConfigFile(join(dir, "missing.yaml"), {});

    // Assess
    expect(result.ok ? [] : lines(result.problems)).toEqual([`${join(dir, "missing.yaml")}: file not found`]);
  });

  it("reports YAML syntax errors with line and column", async () => {
    // Prepare
    const path = await writeConfig("bad.yaml", "Service:\n  logLevel: info\n  auditEvents: [\n  port: 1\n");

    // Act
    const result = await checkConfigFile(path, {});

    // Assess
    expect(result.ok).toBe(false);
    const messages = result.ok ? [] : lines(result.problems);
    expect(messages[0]).toMatch(
      new RegExp(
        `^${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: YAML syntax error at line \\d+, column \\d+: `,
      ),
    );
  });

  it("supports anchors, aliases and merge keys", () => {
    // Prepare
    const text = [
      "Service:",
      "  auditEvents:",
      "    destination:",
      "      parquet: &batch",
      "        maxBatchSize: 500",
      "        writeFrequency: 1000",
      "      tablefile:",
      "        <<: *batch",
      "        exportDirectory: qvd",
    ].join("\n");

    // Act
    const result = checkConfigText(text, "anchors.yaml", {});

    // Assess
    if (!result.ok) expect.fail(lines(result.problems).join("\n"));
    expect(result.config.auditEvents.destination.tablefile).toEqual({
      maxBatchSize: 500,
      writeFrequency: 1000,
      exportDirectory: "qvd",
      staticTags: [],
    });
  });

  it("reports duplicate keys as a YAML error", () => {
    // Act
    const result = checkConfigText("Service:\n  logLevel: info\n  logLevel: warn\n", "dup.yaml", {});

    // Assess
    expect(result.ok ? [] : lines(result.problems)).toEqual([
      "dup.yaml: YAML syntax error at line 3, column 3: Map keys must be unique",
    ]);
  });

  it("names the line indented too far, which the YAML library places at the key above it", () => {
    // Act
    const result = checkConfigText("Service:\n  logLevel: info\n   fileLogging: true\n", "indent.yaml", {});

    // Assess
    expect(result.ok ? [] : lines(result.problems)).toEqual([
      "indent.yaml: YAML syntax error at line 2, column 13: Implicit keys need to be on a single line " +
        "(line 3 continues the value of line 2: is it indented further than the keys beside it?)",
    ]);
  });

  it("refuses a document whose aliases expand without bound", () => {
    // Prepare
    const bomb = [
      "a: &a [x, x, x, x, x, x, x, x, x, x]",
      "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]",
      "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]",
      "Service: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]",
    ].join("\n");

    // Act
    const result = checkConfigText(bomb, "bomb.yaml", {});

    // Assess
    expect(result.ok ? [] : lines(result.problems)).toEqual([
      expect.stringMatching(/^bomb\.yaml: YAML error: /),
    ]);
  });
});

describe("loadConfigFile: checking the settings and the files they name", () => {
  it("throws a ConfigError listing every schema problem", async () => {
    // Prepare
    const path = await writeConfig("wrong.yaml", "Service:\n  logLevel: loud\n  restServer:\n    prot: 1\n");

    // Act
    const error = await loadConfigFile(path, {}).catch((e: unknown) => e);

    // Assess
    expect(error).toBeInstanceOf(ConfigError);
    expect(lines((error as ConfigError).problems)).toEqual([
      "Service.logLevel: must be one of error, warn, info, verbose, debug, silly",
      'Service.restServer.prot: unknown key (did you mean "port"?)',
    ]);
    expect((error as ConfigError).message).toContain(
      'Service.restServer.prot: unknown key (did you mean "port"?)',
    );
  });

  it("requires readable certificate files when a platform endpoint is enabled", async () => {
    // Prepare
    const cert = await writeConfig("client.pem", "cert");
    const path = await writeConfig(
      "certs.yaml",
      [
        "Service:",
        "  platform: { host: sense.example.com }",
        "  restServer: { endpointsEnable: { appList: true } }",
        `  cert: { clientCert: ${cert}, clientCertKey: ${join(dir, "nope.pem")} }`,
      ].join("\n"),
    );

    // Act
    const result = await checkConfigFile(path, {});

    // Assess
    expect(result.ok ? [] : lines(result.problems)).toEqual([
      "Service.cert.clientCertCA: required (a certificate file) by the features that reach the platform",
      `Service.cert.clientCertKey: cannot read file ${join(dir, "nope.pem")} (ENOENT)`,
    ]);
  });

  it("requires readable certificate files when task events are on (each event is looked up in the repository)", async () => {
    // Prepare
    const cert = await writeConfig("task-client.pem", "cert");
    const path = await writeConfig(
      "task-certs.yaml",
      [
        "Service:",
        "  taskEvents: { enable: true }",
        `  cert: { clientCert: ${cert}, clientCertKey: ${join(dir, "nope.pem")} }`,
      ].join("\n"),
    );

    // Act
    const result = await checkConfigFile(path, {});

    // Assess
    expect(result.ok ? [] : lines(result.problems)).toEqual([
      "Service.cert.clientCertCA: required (a certificate file) by the features that reach the platform",
      `Service.cert.clientCertKey: cannot read file ${join(dir, "nope.pem")} (ENOENT)`,
    ]);
  });

  it("does not check certificate files when no feature needs them", async () => {
    // Prepare
    const path = await writeConfig(
      "nocerts.yaml",
      "Service:\n  cert: { clientCert: /nonexistent/client.pem }\n",
    );

    // Act
    const result = await checkConfigFile(path, {});

    // Assess
    expect(result.ok).toBe(true);
  });

  it("requires the broker's TLS files to be readable when the broker uses TLS", async () => {
    // Prepare
    const ca = await writeConfig("mqtt-ca.pem", "ca");
    const path = await writeConfig(
      "mqtt-tls.yaml",
      [
        "Service:",
        "  mqttConfig:",
        "    enable: true",
        "    tls:",
        "      enable: true",
        `      caFile: ${ca}`,
        `      certFile: ${join(dir, "no-client.pem")}`,
        `      keyFile: ${ca}`,
      ].join("\n"),
    );

    // Act
    const result = await checkConfigFile(path, {});

    // Assess
    expect(result.ok ? [] : lines(result.problems)).toEqual([
      `Service.mqttConfig.tls.certFile: cannot read file ${join(dir, "no-client.pem")} (ENOENT)`,
    ]);
  });

  it("does not check the broker's TLS files while TLS or the broker is off", async () => {
    // Prepare
    const tlsOff = await writeConfig(
      "mqtt-tls-off.yaml",
      "Service:\n  mqttConfig: { enable: true, tls: { enable: false, caFile: /nonexistent/ca.pem } }\n",
    );
    const brokerOff = await writeConfig(
      "mqtt-off.yaml",
      "Service:\n  mqttConfig: { enable: false, tls: { enable: true, caFile: /nonexistent/ca.pem } }\n",
    );

    // Act
    const results = [await checkConfigFile(tlsOff, {}), await checkConfigFile(brokerOff, {})];

    // Assess
    expect(results.map((result) => result.ok)).toEqual([true, true]);
  });
});

describe("checkConfigFile: every problem in one pass", () => {
  it("reports the files the validated sections name together with the schema's problems", async () => {
    // Prepare
    const path = await writeConfig(
      "one-pass.yaml",
      [
        "Service:",
        "  logLevel: infos",
        "  heartbeat: { enabled: true }",
        "  taskEvents: { enable: true }",
        "  cert: { clientCert: nope-client.pem }",
        "  mqttConfig:",
        "    enable: true",
        "    brokerHost: <IP of broker>",
        "    tls: { enable: true, caFile: certs/mqtt-ca.pem }",
      ].join("\n"),
    );

    // Act
    const result = await checkConfigFile(path, {}, dir);

    // Assess
    expect(result.ok ? [] : lines(result.problems)).toEqual([
      `Service.cert.clientCert: cannot read file ${join(dir, "nope-client.pem")} (ENOENT)`,
      "Service.cert.clientCertCA: required (a certificate file) by the features that reach the platform",
      "Service.cert.clientCertKey: required (a certificate file) by the features that reach the platform",
      'Service.heartbeat.enabled: unknown key (did you mean "enable"?)',
      "Service.logLevel: must be one of error, warn, info, verbose, debug, silly",
      'Service.mqttConfig.brokerHost: "<IP of broker>" is not a host name (RFC 1123) or an IPv4/IPv6 address',
      `Service.mqttConfig.tls.caFile: cannot read file ${join(dir, "certs", "mqtt-ca.pem")} (ENOENT)`,
    ]);
  });

  it("checks a webhook's CA file when its cert section is on, and the path with its environment variables", async () => {
    // Prepare
    const webhooks = (certCA: string) =>
      `{ webhooks: [{ webhookURL: "http://127.0.0.1:9/hook", cert: { enable: true, certCA: "${certCA}" } }] }`;
    const path = await writeConfig(
      "webhook-ca.yaml",
      [
        "Service:",
        "  webhookNotification:",
        "    enable: true",
        `    reloadTaskFailure: ${webhooks(`${envRef("CA_DIR")}/ca.pem`)}`,
        `    reloadTaskAborted: ${webhooks("")}`,
      ].join("\n"),
    );

    // Act
    const result = await checkConfigFile(path, { CA_DIR: join(dir, "no-such-dir") }, dir);

    // Assess
    expect(result.ok ? [] : lines(result.problems)).toEqual([
      "Service.webhookNotification.reloadTaskAborted.webhooks[0].cert.certCA: required",
      `Service.webhookNotification.reloadTaskFailure.webhooks[0].cert.certCA: cannot read file ${join(dir, "no-such-dir", "ca.pem")} (ENOENT)`,
    ]);
  });

  it("checks no file of a section that is off, and no file whose path names an unset variable", async () => {
    // Prepare
    const path = await writeConfig(
      "files-off.yaml",
      [
        "Service:",
        "  mqttConfig: { enable: false, tls: { enable: true, caFile: /nonexistent/ca.pem } }",
        "  webhookNotification:",
        "    enable: true",
        `    reloadTaskFailure: { webhooks: [{ webhookURL: "http://127.0.0.1:9/hook", cert: { enable: true, certCA: "${envRef("NOPE")}/ca.pem" } }] }`,
      ].join("\n"),
    );

    // Act
    const result = await checkConfigFile(path, {}, dir);

    // Assess
    expect(result.ok ? [] : lines(result.problems)).toEqual([
      "Service.webhookNotification.reloadTaskFailure.webhooks[0].cert.certCA: environment variable NOPE is not set",
    ]);
  });
});
