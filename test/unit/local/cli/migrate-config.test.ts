/**
 * `steward migrate-config FILE` in-process: the converted file on standard output; on standard
 * error every key left out with its reason, the notes, and what check-config says of the result
 * (certificate files read from the working directory); exit 0, 2 or 1. Butler SOS and Butler
 * files alike, told apart by their top-level key.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, USAGE } from "../../../../local/cli/cli.ts";
import { butlerFixture } from "../../../helpers/butler-config.ts";
import { butlerSosFixture } from "../../../helpers/butler-sos-config.ts";
import { scratchDirectory } from "../../../helpers/per-test-environment.ts";
import { exitCode, recordingCliIo } from "../../../helpers/recording-cli-io.ts";

/** A working directory holding `butler-sos.yaml` and, when asked, the certificate files it names. */
function workDir(yaml: string, withCertificates: boolean): string {
  const dir = scratchDirectory("steward-migrate-");
  writeFileSync(join(dir, "butler-sos.yaml"), yaml);
  if (withCertificates) {
    mkdirSync(join(dir, "certs"));
    for (const file of ["client.pem", "client_key.pem", "root.pem"])
      writeFileSync(join(dir, "certs", file), "PEM");
  }
  return dir;
}

describe("steward migrate-config", () => {
  it("prints the converted file, lists what it left out and why, and exits 0 when check-config accepts it", async () => {
    const io = recordingCliIo(workDir(butlerSosFixture("complete.yaml"), true));
    const code = exitCode(await runCli(["migrate-config", "butler-sos.yaml"], io));
    expect(io.err()).toContain("migrate-config: check-config accepts the result");
    expect(code).toBe(0);
    expect(io.out()).toMatch(
      /^# Steward configuration converted by `steward migrate-config` \(steward 15\.0\.0\) from the\n# Butler SOS configuration butler-sos\.yaml\./,
    );
    expect(io.out()).toMatch(/^Service:$/m);
    expect(io.err()).toMatch(
      /^migrate-config: converted butler-sos\.yaml from Butler SOS: \d+ keys renamed, 9 left out$/m,
    );
    expect(io.err()).toMatch(
      /^ {2}left out Butler-SOS\.prometheus\.nodeMetricsPort: Steward serves the process metrics on the scrape endpoint itself/m,
    );
    // The ingest listener serves HTTPS itself: Butler SOS's audit tls is kept, not left out.
    expect(io.err()).not.toMatch(/left out Butler-SOS\.auditEvents\.tls/);
    expect(io.out()).toMatch(/^ {4}tls:\n {6}enable: false\n {6}cert: \.\/config\/certs\/audit-api\.pem$/m);
    expect(io.err()).toMatch(/^ {2}note Service\.restServer\.enable: added as false/m);
  });

  it("lists the problems check-config finds in the result and exits 2, still printing the file", async () => {
    const io = recordingCliIo(workDir(butlerSosFixture("complete.yaml"), false));
    const code = exitCode(await runCli(["migrate-config", "butler-sos.yaml"], io));
    expect(code).toBe(2);
    expect(io.out()).toMatch(/^Service:$/m);
    expect(io.err()).toContain("migrate-config: fix these before Steward starts with the result");
    expect(io.err()).toMatch(
      /^ {2}Service\.cert\.clientCert: cannot read file .*certs\/client\.pem \(ENOENT\)$/m,
    );
  });

  it("lists the template's placeholders as the problems to fix", async () => {
    const io = recordingCliIo(workDir(butlerSosFixture("sample"), false));
    expect(exitCode(await runCli(["migrate-config", "butler-sos.yaml"], io))).toBe(2);
    expect(io.err()).toMatch(
      /^ {2}Service\.logEvents\.udpServerConfig\.serverHost: "<IP or FQDN>" is not a host name/m,
    );
    expect(io.err()).toMatch(/^ {2}Service\.appNames\.hostIP: "<IP or FQDN>" is not a host name/m);
  });

  it("lists every problem of the template in one round: the placeholders and the certificate files", async () => {
    // Prepare
    const dir = workDir(butlerSosFixture("sample"), false);
    const io = recordingCliIo(dir);

    // Act
    const code = exitCode(await runCli(["migrate-config", "butler-sos.yaml"], io));

    // Assess
    expect(code).toBe(2);
    const fixList = io.err().split("(check-config would say):\n")[1]?.trimEnd().split("\n");
    expect(fixList).toEqual([
      '  Service.appNames.hostIP: "<IP or FQDN>" is not a host name (RFC 1123) or an IPv4/IPv6 address',
      `  Service.cert.clientCert: cannot read file ${join(dir, "<path/to/cert/client.pem>")} (ENOENT)`,
      `  Service.cert.clientCertCA: cannot read file ${join(dir, "<path/to/cert/root.pem>")} (ENOENT)`,
      `  Service.cert.clientCertKey: cannot read file ${join(dir, "<path/to/cert/client_key.pem>")} (ENOENT)`,
      '  Service.logEvents.udpServerConfig.serverHost: "<IP or FQDN>" is not a host name (RFC 1123) or an IPv4/IPv6 address',
      '  Service.serversToMonitor.servers[0].host: "<server1.my.domain>:4747" is not host or host:port (port 1-65535)',
      '  Service.serversToMonitor.servers[0].userSessions.host: "<server1.my.domain>:4243" is not host or host:port (port 1-65535)',
      '  Service.serversToMonitor.servers[1].host: "<server2.my.domain>:4747" is not host or host:port (port 1-65535)',
      '  Service.serversToMonitor.servers[1].userSessions.host: "<server2.my.domain>:4243" is not host or host:port (port 1-65535)',
    ]);
  });

  it.each([
    ["a missing file", "nope.yaml", /^migrate-config: nope\.yaml: file not found$/m],
    [
      "a Steward file",
      "steward.yaml",
      /^migrate-config: steward\.yaml: the file is already a Steward configuration/m,
    ],
  ])("refuses %s with exit 1 and prints nothing on standard output", async (_name, file, message) => {
    const dir = workDir("", false);
    writeFileSync(join(dir, "steward.yaml"), "Service: {}\n");
    const io = recordingCliIo(dir);
    expect(exitCode(await runCli(["migrate-config", file], io))).toBe(1);
    expect(io.err()).toMatch(message);
    expect(io.out()).toBe("");
  });

  it("needs a FILE, and says so with the usage", async () => {
    const io = recordingCliIo(workDir("", false));
    expect(exitCode(await runCli(["migrate-config"], io))).toBe(1);
    expect(io.err()).toContain("steward: migrate-config needs a FILE");
    expect(USAGE).toMatch(
      /^ {2}migrate-config FILE {4}print the Steward configuration equivalent to a Butler SOS one;$/m,
    );
  });
});

describe("steward migrate-config on a Butler file", () => {
  /** A working directory holding `butler.yaml` (and the certificate files it names, when asked). */
  function butlerDir(withCertificates: boolean): string {
    const dir = workDir("", withCertificates);
    writeFileSync(join(dir, "butler.yaml"), butlerFixture());
    return dir;
  }

  it("prints the converted file, what it left out and why, the notes, and exits 0 when check-config accepts it", async () => {
    const io = recordingCliIo(butlerDir(true));
    const code = exitCode(await runCli(["migrate-config", "butler.yaml"], io));
    expect(io.err()).toContain("migrate-config: check-config accepts the result");
    expect(code).toBe(0);
    expect(io.out()).toMatch(/^# Butler configuration butler\.yaml\.$/m);
    expect(io.out()).toMatch(/^Service:$/m);
    expect(io.out()).toMatch(/^ {2}taskEvents:$/m);
    expect(io.err()).toMatch(
      /^migrate-config: converted butler\.yaml from Butler: \d+ keys renamed, 41 left out$/m,
    );
    expect(io.out()).toMatch(/^ {2}incidentTool:\n {4}newRelic:$/m);
    expect(io.err()).toMatch(
      /^ {2}left out Butler\.incidentTool\.signl4: Steward has no SIGNL4 destination/m,
    );
    expect(io.err()).not.toMatch(
      /left out Butler\.(startTaskFilter|mqttConfig\.taskStartTopic|mqttConfig\.subscriptionRootTopic|mqttConfig\.taskFailureServerStatusTopic)/,
    );
    expect(io.out()).toMatch(/^ {2}startTaskFilter:$/m);
    expect(io.err()).not.toMatch(
      /left out Butler\.(serviceMonitor|mqttConfig\.service\w+Topic|\w+Notification\.service\w+|incidentTool\.newRelic\.serviceMonitor)/,
    );
    expect(io.out()).toMatch(/^ {2}serviceMonitor:$/m);
    expect(io.err()).toMatch(
      /^ {2}note Service\.taskEvents\.sendToMQTT\.enable: set to true as mqttConfig\.enable is/m,
    );
    expect(io.err()).toMatch(/^ {2}note Service\.timeseriesdbConfig\.version: set to 1/m);
  });

  it("names a heartbeat URL with user:pass@ as a problem to fix, with where credentials go, and never prints the password to standard error", async () => {
    const dir = butlerDir(true);
    const fixture = butlerFixture().replace(
      "remoteURL: http://monitor.nordlys.example:8000/ping/butler-prod",
      "remoteURL: http://hbuser:hbpass@monitor.nordlys.example:8000/ping/butler-prod",
    );
    expect(fixture).toContain("hbpass");
    writeFileSync(join(dir, "butler.yaml"), fixture);
    const io = recordingCliIo(dir);

    expect(exitCode(await runCli(["migrate-config", "butler.yaml"], io))).toBe(2);

    expect(io.err()).toContain("migrate-config: fix these before Steward starts with the result");
    expect(io.err()).toMatch(
      /^ {2}Service\.heartbeat\.remoteURL: must not hold a user name or password \(user:pass@\): HTTP requests refuse such URLs; use the check URL the monitoring service gives/m,
    );
    expect(io.err()).not.toContain("hbpass");
  });

  it("lists the certificate files it cannot read and exits 2, still printing the file", async () => {
    const io = recordingCliIo(butlerDir(false));
    expect(exitCode(await runCli(["migrate-config", "butler.yaml"], io))).toBe(2);
    expect(io.out()).toMatch(/^Service:$/m);
    expect(io.err()).toMatch(
      /^ {2}Service\.cert\.clientCert: cannot read file .*certs\/client\.pem \(ENOENT\)$/m,
    );
  });
});
