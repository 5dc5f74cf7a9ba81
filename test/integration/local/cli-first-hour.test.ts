/**
 * The real `steward` command (bin/steward.js) as a new operator types the handbook's lines:
 * check-config lists every problem of a file in one run (misspelt switches of sections that are
 * off, values of the sections that are on with the host values shown, and the files those
 * sections name); `npm start -- check-config FILE` says which command line runs it; and the
 * pages' `simulate-platform --generate-certs` line works a second time.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { spawnStewardForTest } from "../../helpers/started-steward.ts";
import { runSteward } from "../../helpers/steward-process.ts";

const STACK_LINE = /\n\s+at .+:\d+:\d+/;

/** The arguments `npm start` gives bin/steward.js (package.json's start script), before `-- ARGS`. */
function npmStartArguments(): string[] {
  const pkg = JSON.parse(
    readFileSync(join(import.meta.dirname, "..", "..", "..", "package.json"), "utf8"),
  ) as {
    scripts: { start: string };
  };
  const words = pkg.scripts.start.split(" ");
  return words.slice(words.indexOf("bin/steward.js") + 1);
}

describe("steward check-config: every problem in one run", () => {
  it("lists a misspelt switch, a bad value, a placeholder host and an unreadable certificate at once", async () => {
    // Prepare
    const dir = scratchDirectory("steward-check-config-");
    writeFileSync(
      join(dir, "steward.yaml"),
      [
        "Service:",
        "  logLevel: infos",
        "  heartbeat:",
        "    enabled: true",
        "    remoteURL: http://monitor.example.com/ping",
        "  mqttConfig:",
        "    enable: true",
        "    brokerHost: <IP or FQDN>",
        "    tls:",
        "      enable: true",
        "      caFile: certs/mqtt-ca.pem",
        "",
      ].join("\n"),
    );

    // Act
    const { code, output } = await runSteward(["check-config", "steward.yaml"], dir);

    // Assess
    expect(output.split("\n")).toEqual([
      "Configuration steward.yaml is invalid:",
      'Service.heartbeat.enabled: unknown key (did you mean "enable"?)',
      "Service.logLevel: must be one of error, warn, info, verbose, debug, silly",
      'Service.mqttConfig.brokerHost: "<IP or FQDN>" is not a host name (RFC 1123) or an IPv4/IPv6 address',
      `Service.mqttConfig.tls.caFile: cannot read file ${join(dir, "certs", "mqtt-ca.pem")} (ENOENT)`,
      "",
    ]);
    expect(code).toBe(1);
  });
});

describe("npm start -- COMMAND", () => {
  it("says which command line runs the command, instead of refusing the argument with the usage", async () => {
    // Prepare
    const dir = scratchDirectory("steward-npm-start-");
    writeFileSync(join(dir, "steward.yaml"), "Service: {}\n");

    // Act: what `npm start -- check-config steward.yaml` runs.
    const { code, output } = await runSteward([...npmStartArguments(), "check-config", "steward.yaml"], dir);

    // Assess
    expect(output).toBe(
      [
        'steward: "check-config" is a command of its own, not an argument of start. Run it as:',
        "  npx steward check-config steward.yaml",
        '(npm start always runs "start": give it only the options of start, as in npm start -- --config steward.yaml)',
        "",
      ].join("\n"),
    );
    expect(code).toBe(1);
  });

  it("runs the command line it names", async () => {
    // Prepare
    const dir = scratchDirectory("steward-npm-start-");
    writeFileSync(join(dir, "steward.yaml"), "Service: {}\n");

    // Act
    const { code, output } = await runSteward(["check-config", "steward.yaml"], dir);

    // Assess
    expect(output.trim()).toBe("ok");
    expect(code).toBe(0);
  });
});

describe("simulate-platform --generate-certs, as two pages of the handbook run it", () => {
  it("starts the second time too, on the certificates of the first run, and says so", async () => {
    // Prepare
    const dir = scratchDirectory("steward-generate-certs-");
    const run = async () => {
      const sim = spawnStewardForTest(["simulate-platform", "--port", "0", "--generate-certs"], { cwd: dir });
      await sim.waitFor(/Stop the simulated platform with Ctrl-C/, 30_000);
      sim.child.kill("SIGINT");
      const { code } = await sim.exited();
      return { code, output: sim.output() };
    };
    const ca = () => readFileSync(join(dir, "simulated-platform-certs", "root.pem"), "utf8");
    const first = await run();
    const firstCa = ca();

    // Act
    const second = await run();

    // Assess
    expect(first.code).toBe(0);
    expect(second.code).toBe(0);
    expect(ca()).toBe(firstCa);
    expect(second.output).toContain(
      `steward: using the throw-away certificates already in ${join(dir, "simulated-platform-certs")} (valid until `,
    );
    expect(second.output).not.toMatch(STACK_LINE);
  }, 90_000);
});
