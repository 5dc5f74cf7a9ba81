import { readFileSync, writeFileSync } from "node:fs";
import { request } from "node:https";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseConfig } from "../../../../core/config/index.ts";
import { runCli, USAGE } from "../../../../local/cli/cli.ts";
import {
  DEFAULT_SIMULATED_PORT,
  parseSimulatePlatformOptions,
  SimulatePlatformUsageError,
} from "../../../../local/cli/simulate-platform.ts";
import { stewardConfigSnippet } from "../../../../local/cli/simulated-platform-snippet.ts";
import {
  generateSelfSignedCertificate,
  THROWAWAY_PKI_FILE_NAMES,
} from "../../../../local/simulated-platform/throwaway-pki.ts";
import { scratchDirectory } from "../../../helpers/per-test-environment.ts";
import { exitCode, recordingCliIo } from "../../../helpers/recording-cli-io.ts";

const freshDir = () => scratchDirectory("steward-simulate-");

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The tag (InfluxDB) and label (Prometheus) the shipped dashboards' Environment variable reads;
 * both dashboards must agree on it.
 */
function dashboardEnvironmentTag(): string {
  const dashboards = join(import.meta.dirname, "..", "..", "..", "..", "dashboards", "grafana");
  const environmentQuery = (file: string) => {
    const dashboard = JSON.parse(readFileSync(join(dashboards, file), "utf8")) as {
      templating: { list: { name: string; query: unknown }[] };
    };
    return String(dashboard.templating.list.find((variable) => variable.name === "environment")?.query);
  };
  const influx = /WITH KEY = "([^"]+)"/.exec(environmentQuery("steward-qlik-sense-influxdb.json"))?.[1];
  const prometheus = /^label_values\((\w+)\)$/.exec(
    environmentQuery("steward-qlik-sense-prometheus.json"),
  )?.[1];
  expect(influx).toBeDefined();
  expect(prometheus).toBe(influx);
  return influx as string;
}

describe("parseSimulatePlatformOptions", () => {
  it.each([
    ["127.0.0.1:9998", { host: "127.0.0.1", port: 9998 }],
    ["steward.example.com:19998", { host: "steward.example.com", port: 19998 }],
    ["[::1]:9998", { host: "::1", port: 9998 }],
  ])("takes --task-events %s", (text, target) => {
    expect(parseSimulatePlatformOptions({ "task-events": text }, "/work").taskEvents).toEqual(target);
  });

  it("defaults to one server on 127.0.0.1:4747 with certificates in ./simulated-platform-certs", () => {
    expect(parseSimulatePlatformOptions({}, "/work")).toEqual({
      port: DEFAULT_SIMULATED_PORT,
      servers: 1,
      host: "127.0.0.1",
      certsDir: join("/work", "simulated-platform-certs"),
      generateCerts: false,
      force: false,
      licenseExpiresInDays: 365,
    });
  });

  it("resolves --write-config from the working directory and refuses an empty one", () => {
    expect(
      parseSimulatePlatformOptions({ "write-config": "sim/steward-sim.yaml" }, "/work").writeConfig,
    ).toEqual({
      path: join("/work", "sim", "steward-sim.yaml"),
      given: "sim/steward-sim.yaml",
    });
    expect(() => parseSimulatePlatformOptions({ "write-config": " " }, "/work")).toThrow(
      "--write-config must name a file",
    );
  });

  it("takes every option, resolving --certs from the working directory", () => {
    expect(
      parseSimulatePlatformOptions(
        {
          port: "0",
          servers: "1000",
          host: "[::1]",
          certs: "certs/sim",
          "generate-certs": true,
          force: true,
          "license-expires-in-days": "-3",
        },
        "/work",
      ),
    ).toEqual({
      port: 0,
      servers: 1000,
      host: "::1",
      certsDir: join("/work", "certs", "sim"),
      generateCerts: true,
      force: true,
      licenseExpiresInDays: -3,
    });
  });

  it.each([
    [{ port: "abc" }, /--port must be a whole number from 0 to 65535 \(got "abc"\)/],
    [{ port: "-1" }, /--port must be a whole number/],
    [{ port: "65536" }, /--port must be a whole number/],
    [{ port: "47.5" }, /--port must be a whole number/],
    [{ servers: "0" }, /--servers must be a whole number from 1 to 1000 \(got "0"\)/],
    [{ servers: "1001" }, /--servers must be a whole number from 1 to 1000/],
    [{ port: "65535", servers: "2" }, /would need ports up to 65536, past 65535/],
    [{ host: "" }, /--host must be a host name or IP address/],
    [{ certs: " " }, /--certs must name a folder/],
    [{ force: true }, /--force only applies with --generate-certs/],
    [{ "task-events": "9998" }, /--task-events must be HOST:PORT, e.g. 127.0.0.1:9998 \(got "9998"\)/],
    [{ "task-events": "127.0.0.1:0" }, /--task-events must be HOST:PORT/],
    [{ "task-events": "::1:9998" }, /--task-events must be HOST:PORT/],
    [{ "license-expires-in-days": "soon" }, /--license-expires-in-days must be a whole number of days/],
    [{ "license-expires-in-days": "1.5" }, /--license-expires-in-days must be a whole number of days/],
    [{ "license-expires-in-days": "36501" }, /from -36500 to 36500 \(got "36501"\)/],
  ])("refuses %o", (args, message) => {
    expect(() => parseSimulatePlatformOptions(args, "/work")).toThrow(SimulatePlatformUsageError);
    expect(() => parseSimulatePlatformOptions(args, "/work")).toThrow(message);
  });
});

describe("steward simulate-platform (in process)", () => {
  it("prints a bad option with the usage and exits 1", async () => {
    const io = recordingCliIo(freshDir());
    expect(exitCode(await runCli(["simulate-platform", "--servers", "x"], io))).toBe(1);
    expect(io.err()).toBe(`steward: --servers must be a whole number from 1 to 1000 (got "x")\n\n${USAGE}`);
  });

  it("refuses its options on other commands, and --config and extra arguments on itself", async () => {
    const cases = [
      [["start", "--port", "1"], "--port is an option of simulate-platform and simulate-qlik-cloud only"],
      [
        ["check-config", "x.yaml", "--generate-certs"],
        "--generate-certs is an option of simulate-platform only",
      ],
      [["simulate-platform", "--config", "x.yaml"], "--config is not an option of simulate-platform"],
      [["simulate-platform", "now"], 'unexpected argument "now"'],
    ] as const;
    for (const [argv, message] of cases) {
      const io = recordingCliIo(freshDir());
      expect(exitCode(await runCli(argv, io))).toBe(1);
      expect(io.err()).toContain(`steward: ${message}\n`);
    }
  });

  it("exits 1 naming the missing certificate files and --generate-certs", async () => {
    const dir = freshDir();
    writeFileSync(join(dir, THROWAWAY_PKI_FILE_NAMES.ca), "not used");
    const io = recordingCliIo(dir);
    expect(exitCode(await runCli(["simulate-platform", "--certs", "."], io))).toBe(1);
    expect(io.err()).toBe(
      `steward: certificate files missing in ${dir}: server.pem, server_key.pem, client.pem, client_key.pem; ` +
        "add --generate-certs to write throw-away certificates there (or choose the folder with --certs DIR)\n",
    );
  });

  it("generates certificates, serves over them, refuses to replace other certificates without --force, replaces them with it", async () => {
    const dir = freshDir();
    const io = recordingCliIo(dir);
    const result = await runCli(["simulate-platform", "--port", "0", "--generate-certs"], io);
    if (!("running" in result)) throw new Error(`expected it to run:\n${io.err()}`);
    try {
      const port = Number(/https:\/\/127\.0\.0\.1:(\d+)/.exec(io.err())?.[1]);
      const certs = join(dir, "simulated-platform-certs");
      const pem = (name: string) => readFileSync(join(certs, name), "utf8");
      const status = await new Promise<number | undefined>((resolve, reject) =>
        request(
          {
            host: "127.0.0.1",
            port,
            path: "/engine/healthcheck",
            ca: pem("root.pem"),
            cert: pem("client.pem"),
            key: pem("client_key.pem"),
          },
          (res) => {
            res.resume();
            resolve(res.statusCode);
          },
        )
          .on("error", reject)
          .end(),
      );
      expect(status).toBe(200);
    } finally {
      await result.running.parts.stop();
      await result.running.logger.close();
    }

    // The folder now holds a CA of someone else's, as a real export of the platform would.
    const stranger = await generateSelfSignedCertificate({ commonName: "Corporate Root CA" });
    writeFileSync(join(dir, "simulated-platform-certs", "root.pem"), stranger.cert);
    const again = recordingCliIo(dir);
    expect(exitCode(await runCli(["simulate-platform", "--generate-certs"], again))).toBe(1);
    expect(again.err()).toMatch(
      /already holds certificate files \(root\.pem, server\.pem, server_key\.pem, client\.pem, client_key\.pem\); run without --generate-certs to use them, or add --force/,
    );

    const before = readFileSync(join(dir, "simulated-platform-certs", "root.pem"), "utf8");
    const forced = recordingCliIo(dir);
    const replaced = await runCli(
      ["simulate-platform", "--port", "0", "--generate-certs", "--force"],
      forced,
    );
    if (!("running" in replaced)) throw new Error(`expected it to run:\n${forced.err()}`);
    await replaced.running.parts.stop();
    expect(readFileSync(join(dir, "simulated-platform-certs", "root.pem"), "utf8")).not.toBe(before);
  });
});

describe("simulate-platform --generate-certs a second time", () => {
  /** Runs the command to its start, then stops it; its standard error and the certificate folder. */
  async function runOnce(dir: string, args: readonly string[]) {
    const io = recordingCliIo(dir);
    const result = await runCli(["simulate-platform", "--port", "0", "--generate-certs", ...args], io);
    // 0 for a simulator that started (and is stopped here), else the command's exit code.
    let code = 0;
    if ("running" in result) {
      await result.running.parts.stop();
      await result.running.logger.close();
    } else {
      code = exitCode(result);
    }
    const certs = join(dir, "simulated-platform-certs");
    const files = Object.values(THROWAWAY_PKI_FILE_NAMES).map((name) =>
      readFileSync(join(certs, name), "utf8"),
    );
    return { code, err: io.err(), certs, files };
  }

  it("uses the throw-away certificates of the first run again, and says so", async () => {
    // Prepare
    const dir = freshDir();
    const first = await runOnce(dir, []);

    // Act
    const second = await runOnce(dir, []);

    // Assess
    expect(first.code).toBe(0);
    expect(second.code).toBe(0);
    expect(second.files).toEqual(first.files);
    expect(second.err).toMatch(
      new RegExp(
        `^steward: using the throw-away certificates already in ${escapeRegExp(second.certs)} \\(valid until \\d{4}-\\d{2}-\\d{2}\\); add --force for new ones$`,
        "m",
      ),
    );
  });

  it("writes new ones with --force, and refuses certificates that do not name the host Steward connects to", async () => {
    // Prepare
    const dir = freshDir();
    const first = await runOnce(dir, []);

    // Act
    const forced = await runOnce(dir, ["--force"]);
    const otherHost = await runOnce(dir, ["--host", "::1"]);

    // Assess
    expect(forced.code).toBe(0);
    expect(forced.files).not.toEqual(first.files);
    expect(otherHost.code).toBe(1);
    expect(otherHost.err).toContain("the server certificate does not name ::1");
    expect(otherHost.files).toEqual(forced.files);
  });
});

describe("stewardConfigSnippet", () => {
  const files = { clientCert: "/c/client.pem", clientKey: "/c/client_key.pem", ca: "/c/root.pem" };

  it("is a configuration Steward accepts, polling every server", () => {
    const text = stewardConfigSnippet({ host: "127.0.0.1", ports: [4747, 4748, 4749], files });
    const parsed = parseConfig(parse(text));
    if (!parsed.ok) throw new Error(parsed.problems.map((p) => `${p.path}: ${p.message}`).join("\n"));
    const { config } = parsed;
    expect(config.cert).toMatchObject({
      clientCert: files.clientCert,
      clientCertKey: files.clientKey,
      clientCertCA: files.ca,
    });
    expect(config.platform).toMatchObject({ host: "127.0.0.1", repositoryPort: 4747 });
    expect(config.appNames).toMatchObject({ enableAppNameExtract: true, hostIP: "127.0.0.1" });
    expect(config.userSessions.enableSessionExtract).toBe(true);
    expect(config.scrapeEndpoint).toEqual({
      enable: true,
      host: "127.0.0.1",
      port: 9842,
      allowUnauthenticated: false,
      allowedHosts: [],
      tls: { enable: false, cert: "", key: "", pfx: "", ca: "", passphrase: "" },
    });
    expect(config.configVisualisation).toMatchObject({ enable: true, host: "127.0.0.1", port: 3100 });
    expect(config.taskEvents.enable).toBe(false);
    expect(config.webhookNotification.enable).toBe(false);
    expect(config.licenseMonitor).toMatchObject({
      enable: true,
      version: { port: 4747 },
      timeseriesdb: { tag: { static: [{ name: "qs_env", value: "simulated" }] } },
      licenseRelease: { enable: true, dryRun: true },
    });
    expect(config.serversToMonitor.servers.map((s) => [s.host, s.serverName, s.userSessions])).toEqual(
      [4747, 4748, 4749].map((port, i) => [
        `127.0.0.1:${port}`,
        `simulated-${i + 1}`,
        { enable: true, host: `127.0.0.1:${port}`, virtualProxies: [{ virtualProxy: "/" }] },
      ]),
    );
  });

  it("tags every server with the environment tag the shipped dashboards filter on, valued simulated", () => {
    const text = stewardConfigSnippet({ host: "127.0.0.1", ports: [4747, 4748], files });
    const parsed = parseConfig(parse(text));
    if (!parsed.ok) throw new Error(parsed.problems.map((p) => `${p.path}: ${p.message}`).join("\n"));
    const { serversToMonitor } = parsed.config;

    const tag = dashboardEnvironmentTag();

    expect(serversToMonitor.serverTagsDefinition).toEqual([tag]);
    for (const server of serversToMonitor.servers) expect(server.serverTags).toEqual({ [tag]: "simulated" });
  });

  it("brackets an IPv6 address beside a port and quotes paths YAML would misread", () => {
    const odd = { clientCert: "C:\\certs\\client.pem", clientKey: "/c/key #1.pem", ca: "true" };
    const text = stewardConfigSnippet({ host: "::1", ports: [4747], files: odd });
    const parsed = parseConfig(parse(text));
    if (!parsed.ok) throw new Error(parsed.problems.map((p) => `${p.path}: ${p.message}`).join("\n"));
    expect(parsed.config.cert).toMatchObject({
      clientCert: odd.clientCert,
      clientCertKey: odd.clientKey,
      clientCertCA: "true",
    });
    expect(parsed.config.serversToMonitor.servers[0]?.host).toBe("[::1]:4747");
    expect(parsed.config.appNames.hostIP).toBe("::1");
  });
});
