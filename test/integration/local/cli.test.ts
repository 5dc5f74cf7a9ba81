import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { freePort, waitForHttp } from "../../helpers/free-port.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { spawnStewardForTest } from "../../helpers/started-steward.ts";
import { runSteward, type StewardProcess } from "../../helpers/steward-process.ts";

const freshDir = () => scratchDirectory("steward-cli-");
const start = (args: string[], cwd: string): StewardProcess => spawnStewardForTest(args, { cwd });

function writeConfig(dir: string, name: string, yaml: string): string {
  const path = join(dir, name);
  writeFileSync(path, yaml);
  return path;
}

/** A config serving only the REST API's ping on `port`. */
const pingConfig = (port: number) => `Service:
  logLevel: info
  auditEvents:
    enable: false
  restServer:
    port: ${port}
    endpointsEnable:
      ping: true
`;

describe("steward CLI: commands that answer and exit", () => {
  it("prints its version", async () => {
    const { code, output } = await runSteward(["--version"], freshDir());
    expect(code).toBe(0);
    expect(output.trim()).toBe("steward 15.0.0");
  });

  it("check-config prints ok for a valid file", async () => {
    const dir = freshDir();
    const { code, output } = await runSteward(
      ["check-config", writeConfig(dir, "good.yaml", pingConfig(8081))],
      dir,
    );
    expect(output.trim()).toBe("ok");
    expect(code).toBe(0);
  });

  it("check-config prints every problem as Service.path: message and exits 1, without a stack trace", async () => {
    const dir = freshDir();
    const file = writeConfig(
      dir,
      "bad.yml",
      "Service:\n  logLevel: loud\n  restServer:\n    port: 99999\n    endpointsEnabel: {}\n",
    );
    const { code, output } = await runSteward(["check-config", file], dir);
    expect(code).toBe(1);
    expect(output).toMatch(/^Service\.logLevel: /m);
    expect(output).toMatch(/^Service\.restServer\.port: /m);
    expect(output).toMatch(/^Service\.restServer\.endpointsEnabel: .*endpointsEnable/m);
    expect(output).not.toMatch(/\n\s+at .+:\d+:\d+/);
  });

  it("reports a YAML syntax error with its line and column", async () => {
    const dir = freshDir();
    const file = writeConfig(dir, "broken.yaml", "Service:\n  logLevel: info\n   fileLogging: [\n");
    const { code, output } = await runSteward(["check-config", file], dir);
    expect(code).toBe(1);
    expect(output).toMatch(/broken\.yaml: YAML syntax error at line \d+, column \d+: /);
    expect(output).not.toMatch(/\n\s+at .+:\d+:\d+/);
  });

  it("reports a missing file clearly", async () => {
    const dir = freshDir();
    const { code, output } = await runSteward(["check-config", join(dir, "nope.yaml")], dir);
    expect(code).toBe(1);
    expect(output).toMatch(/nope\.yaml/);
    expect(output).not.toMatch(/\n\s+at .+:\d+:\d+/);
  });

  it("init-config prints a template that check-config accepts as printed", async () => {
    const dir = freshDir();
    const template = await runSteward(["init-config"], dir);
    expect(template.code).toBe(0);
    expect(template.output).toMatch(/^Service:/m);
    const file = writeConfig(dir, "template.yaml", template.output);
    const { code, output } = await runSteward(["check-config", file], dir);
    expect(output.trim()).toBe("ok");
    expect(code).toBe(0);
  });

  it("refuses an unknown log level and an unknown command with usage and exit 1", async () => {
    const dir = freshDir();
    const badLevel = await runSteward(["start", "--log-level", "loud"], dir);
    expect(badLevel.code).toBe(1);
    expect(badLevel.output).toMatch(/--log-level must be one of/);
    const badCommand = await runSteward(["frobnicate"], dir);
    expect(badCommand.code).toBe(1);
    expect(badCommand.output).toMatch(/unknown command "frobnicate"/);
  });
});

describe("steward CLI: start", () => {
  it("start with a bad config prints the problems, serves nothing and exits 1", async () => {
    const dir = freshDir();
    const file = writeConfig(dir, "bad.yaml", "Service:\n  restServer:\n    port: -1\n");
    const proc = start(["start", "--config", file], dir);
    const { code } = await proc.exited();
    expect(code).toBe(1);
    expect(proc.output()).toMatch(/^Service\.restServer\.port: /m);
    expect(proc.output()).not.toMatch(/listening/);
  });

  it("start with an unreadable broker CA file names the setting and path, without a stack, and exits 1", async () => {
    const dir = freshDir();
    const file = writeConfig(
      dir,
      "broker.yaml",
      [
        "Service:",
        "  restServer: { endpointsEnable: { mqttPublishMessage: true } }",
        "  mqttConfig: { enable: true, tls: { enable: true, caFile: certs/missing-ca.pem } }",
        "",
      ].join("\n"),
    );
    const proc = start(["start", "--config", file], dir);
    const { code } = await proc.exited();
    expect(code).toBe(1);
    expect(proc.output()).toContain(
      `Service.mqttConfig.tls.caFile: cannot read file ${join(dir, "certs", "missing-ca.pem")} (ENOENT)`,
    );
    expect(proc.output()).not.toMatch(/\n\s+at .+:\d+:\d+/);
    expect(proc.output()).not.toMatch(/listening/);
  });

  it("serves GET /v4/ping from a config file and stops cleanly on SIGTERM within 10 s", async () => {
    const dir = freshDir();
    const port = await freePort();
    const proc = start(["start", "--config", writeConfig(dir, "steward.yaml", pingConfig(port))], dir);
    const [, url] = await proc.waitFor(/REST API listening url=(http:\/\/127\.0\.0\.1:\d+)/);
    expect(url).toBe(`http://127.0.0.1:${port}`);
    await proc.waitFor(/steward ready/);
    const response = await fetch(`${url}/v4/ping`);
    expect(await response.json()).toEqual({
      response: "Steward reporting for duty",
      serviceVersion: "15.0.0",
    });

    proc.child.kill("SIGTERM");
    const { code, ms } = await proc.exited();
    expect(code).toBe(0);
    expect(ms).toBeLessThan(10_000);
    expect(proc.output()).toMatch(/received SIGTERM, stopping/);
  });

  it("warns at start about an enabled destination switch that no enabled part uses", async () => {
    const dir = freshDir();
    const port = await freePort();
    const yaml = `${pingConfig(port)}  obsPlatform:\n    enable: true\n`;
    const proc = start(["start", "--config", writeConfig(dir, "steward.yaml", yaml)], dir);
    await proc.waitFor(/steward ready/);
    proc.child.kill("SIGTERM");
    expect((await proc.exited()).code).toBe(0);
    expect(proc.output()).toMatch(
      / warn: these enabled settings have no effect: .* settings=Service\.obsPlatform\.enable\n/,
    );
  });

  it("serves the config UI when configVisualisation.enable, without a warning", async () => {
    const dir = freshDir();
    const port = await freePort();
    const uiPort = await freePort();
    const yaml = `${pingConfig(port)}  configVisualisation:\n    enable: true\n    host: 127.0.0.1\n    port: ${uiPort}\n`;
    const proc = start(["start", "--config", writeConfig(dir, "steward.yaml", yaml)], dir);
    await proc.waitFor(/steward ready/);
    const status = (await (await fetch(`http://127.0.0.1:${uiPort}/status`)).json()) as { version: string };
    proc.child.kill("SIGTERM");
    expect((await proc.exited()).code).toBe(0);
    expect(status.version).toBe("15.0.0");
    expect(proc.output()).not.toMatch(/these enabled settings have no effect/);
    expect(proc.output()).toContain(`Status page and configuration url=http://127.0.0.1:${uiPort}/`);
  });

  it("honours a SIGTERM that arrives during start-up: stops gracefully and exits 0", async () => {
    const dir = freshDir();
    const port = await freePort();
    const proc = start(["start", "--config", writeConfig(dir, "steward.yaml", pingConfig(port))], dir);
    await proc.waitFor(/steward 15\.0\.0 starting/);
    proc.child.kill("SIGTERM");
    const { code, signal } = await proc.exited();
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(proc.output()).toMatch(/received SIGTERM, stopping/);
  });

  it("--log-level overrides logLevel", async () => {
    const dir = freshDir();
    const port = await freePort();
    const proc = start(
      ["start", "-c", writeConfig(dir, "steward.yaml", pingConfig(port)), "--log-level", "warn"],
      dir,
    );
    expect((await waitForHttp(`http://127.0.0.1:${port}/v4/ping`)).status).toBe(200);
    proc.child.kill("SIGTERM");
    expect((await proc.exited()).code).toBe(0);
    expect(proc.output()).not.toMatch(/ info: /);
  });

  it("exits 1 with a clear message, not half-started, when its port is taken", async () => {
    const dir = freshDir();
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const proc = start(["start", "--config", writeConfig(dir, "steward.yaml", pingConfig(port))], dir);
      const { code } = await proc.exited();
      expect(code).toBe(1);
      expect(proc.output()).toMatch(new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port} \\(EADDRINUSE\\)`));
      expect(proc.output()).toMatch(/failed to start/);
    } finally {
      blocker.close();
    }
  });

  it("npm start's embedded default config serves GET /v4/ping on 127.0.0.1:8081 and the status page on 127.0.0.1:3100, named in the log, and stops on SIGINT", async () => {
    const dir = freshDir();
    const proc = start([], dir);
    await proc.waitFor(/REST API listening url=http:\/\/127\.0\.0\.1:8081/);
    await proc.waitFor(/steward ready/);
    const response = await fetch("http://127.0.0.1:8081/v4/ping");
    expect(response.status).toBe(200);
    expect(proc.output()).toContain("Status page and configuration url=http://127.0.0.1:3100/");
    expect(proc.output().match(/warn: \[rest\] No restServer\.apiToken configured/g)).toHaveLength(1);
    const page = await fetch("http://127.0.0.1:3100/");
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<html/i);
    proc.child.kill("SIGINT");
    const { code, ms } = await proc.exited();
    expect(code).toBe(0);
    expect(ms).toBeLessThan(10_000);
  });
});

describe("steward CLI: listeners that would answer without a token", () => {
  /** The REST API on all interfaces without a token, with * among its origins, and an open status page. */
  const openConfig = (port: number) => `Service:
  auditEvents:
    enable: false
  restServer:
    host: 0.0.0.0
    port: ${port}
    cors:
      allowedOrigins: ["*"]
  configVisualisation:
    enable: true
    host: 0.0.0.0
`;
  const PROBLEMS = [
    /^Service\.configVisualisation\.host: 0\.0\.0\.0 is not a loopback address and the status page has no token/m,
    /^Service\.restServer\.cors\.allowedOrigins: "\*" lets any web page call the REST API and restServer\.apiToken is empty/m,
    /^Service\.restServer\.host: 0\.0\.0\.0 is not a loopback address and restServer\.apiToken is empty/m,
  ];

  it("check-config names every one at once and exits 1", async () => {
    const dir = freshDir();
    const { code, output } = await runSteward(
      ["check-config", writeConfig(dir, "open.yaml", openConfig(8081))],
      dir,
    );
    expect(code).toBe(1);
    for (const problem of PROBLEMS) expect(output).toMatch(problem);
  });

  it("start refuses it, serving nothing, and exits 1", async () => {
    const dir = freshDir();
    const proc = start(
      ["start", "--config", writeConfig(dir, "open.yaml", openConfig(await freePort()))],
      dir,
    );
    const { code } = await proc.exited();
    expect(code).toBe(1);
    for (const problem of PROBLEMS) expect(proc.output()).toMatch(problem);
    expect(proc.output()).not.toMatch(/listening/);
  });

  it("start serves it with allowUnauthenticated: true, warning for each listener", async () => {
    const dir = freshDir();
    const port = await freePort();
    const file = writeConfig(
      dir,
      "open.yaml",
      `${openConfig(port).replace("    host: 0.0.0.0\n    port:", "    host: 0.0.0.0\n    allowUnauthenticated: true\n    port:")}    port: ${await freePort()}
    allowUnauthenticated: true
`,
    );
    const proc = start(["start", "--config", file], dir);
    await proc.waitFor(/steward ready/);
    expect(proc.output()).toContain(
      `warn: [rest] restServer.allowUnauthenticated is true: the REST API on 0.0.0.0:${port} answers any client that reaches it and any web page (cors.allowedOrigins holds *), without a token`,
    );
    expect(proc.output()).toMatch(
      /warn: configVisualisation\.allowUnauthenticated is true: the status page on 0\.0\.0\.0:\d+ shows/,
    );
    expect((await fetch(`http://127.0.0.1:${port}/v4/ping`)).status).toBe(200);
    proc.child.kill("SIGTERM");
    expect((await proc.exited()).code).toBe(0);
  });
});
