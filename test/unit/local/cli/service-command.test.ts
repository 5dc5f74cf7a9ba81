/**
 * `steward service ...` on a Windows host, with what Steward writes and runs observed: the
 * wrapper's XML beside steward.exe, the wrapper's command lines in order, what is printed and the
 * exit codes. WinSW itself (a .NET program) cannot run on Linux, so a shell script stands in for
 * steward-service.exe: it records each command line and keeps the service's state in a file, as
 * WinSW's install, start, stop, status and uninstall do with the service control manager. The
 * host is given (Windows, steward.exe); elsewhere the command refuses, through the real CLI.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../../../local/cli/cli.ts";
import {
  runService,
  type ServiceHost,
  type ServiceRequest,
  serviceRequest,
} from "../../../../local/cli/service-command.ts";
import { scratchDirectory } from "../../../helpers/per-test-environment.ts";
import { exitCode, recordingCliIo } from "../../../helpers/recording-cli-io.ts";

/** Stands in for WinSW: records `<its name> <command>` and keeps the service's state. */
const WRAPPER_SCRIPT = `#!/bin/sh
dir=$(dirname "$0")
name=$(basename "$0" .exe)
echo "$name $*" >> "$dir/calls.log"
state="$dir/$name.state"
case "$1" in
  install)
    if [ -f "$dir/refuse" ]; then cat "$dir/refuse"; exit 7; fi
    cp "$dir/$name.xml" "$dir/$name.installed-xml"
    echo Stopped > "$state" ;;
  start) echo Started > "$state" ;;
  stop) echo Stopped > "$state" ;;
  status) if [ -f "$state" ]; then cat "$state"; else echo NonExistent; fi ;;
  uninstall) rm -f "$state" ;;
esac
`;

interface Install {
  folder: string;
  host: ServiceHost;
  calls(): string[];
  run(
    args: string[],
    values?: Parameters<typeof serviceRequest>[1],
  ): Promise<{ code: number; out: string; err: string }>;
}

/** steward.exe's folder as the Windows archive leaves it, with a valid configuration in `conf/`. */
function unpackedArchive(): Install {
  const folder = scratchDirectory("steward-service-");
  writeFileSync(join(folder, "steward-service.exe"), WRAPPER_SCRIPT);
  chmodSync(join(folder, "steward-service.exe"), 0o755);
  writeFileSync(join(folder, "steward-service.exe.config"), "<configuration/>");
  writeFileSync(join(folder, "steward.yaml"), "Service:\n  logLevel: info\n");
  const host: ServiceHost = { platform: "win32", executable: join(folder, "steward.exe") };
  return {
    folder,
    host,
    calls: () =>
      existsSync(join(folder, "calls.log"))
        ? readFileSync(join(folder, "calls.log"), "utf8").trim().split("\n")
        : [],
    async run(args, values = {}) {
      const io = recordingCliIo(folder);
      const code = await runService(serviceRequest(args, values), io, host);
      return { code, out: io.out(), err: io.err() };
    },
  };
}

describe("steward service install", () => {
  it("checks the configuration, writes the wrapper's XML beside steward.exe and runs the wrapper's install", async () => {
    const archive = unpackedArchive();

    const result = await archive.run(["install"], { config: "steward.yaml" });

    expect(result.code).toBe(0);
    expect(archive.calls()).toEqual(["steward-service install"]);
    const xml = readFileSync(join(archive.folder, "steward-service.installed-xml"), "utf8");
    expect(xml).toContain(`<executable>${join(archive.folder, "steward.exe")}</executable>`);
    expect(xml).toContain(`<argument>${join(archive.folder, "steward.yaml")}</argument>`);
    expect(xml).toContain(`<workingdirectory>${archive.folder}</workingdirectory>`);
    expect(xml).toContain(`<logpath>${join(archive.folder, "log")}</logpath>`);
    expect(readFileSync(join(archive.folder, "steward-service.xml"), "utf8")).toBe(xml);
    expect(result.out).toContain("service Steward: installed, starts at boot as NT AUTHORITY\\LocalService");
    expect(result.out).toContain(`icacls "${archive.folder}" /grant "NT AUTHORITY\\LocalService:(OI)(CI)M"`);
  });

  it("installs nothing when the configuration is invalid, naming the problem", async () => {
    const archive = unpackedArchive();
    writeFileSync(join(archive.folder, "bad.yaml"), "Service:\n  logLevel: loud\n");

    const result = await archive.run(["install"], { config: "bad.yaml" });

    expect(result.code).toBe(1);
    expect(result.err).toMatch(/Configuration .*bad\.yaml is invalid:\n.*logLevel/);
    expect(archive.calls()).toEqual([]);
    expect(existsSync(join(archive.folder, "steward-service.xml"))).toBe(false);
  });

  it("leaves nothing behind when the wrapper refuses, and shows what it said", async () => {
    const archive = unpackedArchive();
    writeFileSync(
      join(archive.folder, "refuse"),
      "Installation failure: Service with id 'Steward' already exists\n",
    );

    const result = await archive.run(["install"], { config: "steward.yaml" });

    expect(result.code).toBe(1);
    expect(result.err).toBe(
      `steward: the service wrapper ${join(archive.folder, "steward-service.exe")} could not install service Steward; nothing was installed (exit status 7):\nInstallation failure: Service with id 'Steward' already exists\n`,
    );
    expect(existsSync(join(archive.folder, "steward-service.xml"))).toBe(false);
  });

  it("refuses to overwrite the definition of a service installed from the same folder", async () => {
    const archive = unpackedArchive();
    await archive.run(["install"], { config: "steward.yaml" });

    const again = await archive.run(["install"], { config: "steward.yaml", account: "NetworkService" });

    expect(again.code).toBe(1);
    expect(again.err).toContain("service Steward is already installed from here");
    expect(archive.calls()).toEqual(["steward-service install"]);
    expect(readFileSync(join(archive.folder, "steward-service.xml"), "utf8")).toContain(
      "<user>LocalService</user>",
    );
  });

  it("gives a service of another name its own copy of the wrapper and its own XML", async () => {
    const archive = unpackedArchive();

    const result = await archive.run(["install"], {
      config: "steward.yaml",
      name: "StewardTest",
      account: "CORP\\svc",
    });

    expect(result.code).toBe(0);
    expect(archive.calls()).toEqual(["steward-service-StewardTest install"]);
    expect(existsSync(join(archive.folder, "steward-service-StewardTest.exe.config"))).toBe(true);
    const xml = readFileSync(join(archive.folder, "steward-service-StewardTest.xml"), "utf8");
    expect(xml).toContain("<id>StewardTest</id>");
    expect(xml).toContain("<allowservicelogon>true</allowservicelogon>");
    expect(result.out).toContain("Set the account's password in Windows before the first start");
    expect(result.out).toContain("Start it: steward service start --name StewardTest");
  });

  it("refuses a path the wrapper would expand as an environment variable", async () => {
    const archive = unpackedArchive();

    const result = await archive.run(["install"], { config: "%TEMP%.yaml" });

    expect(result.code).toBe(1);
    expect(result.err).toContain('a path with "%" cannot be given to the service wrapper');
    expect(archive.calls()).toEqual([]);
  });
});

describe("steward service start, stop, status, uninstall", () => {
  it("starts, reports running (0), stops, reports stopped (3), and after uninstall not installed (4)", async () => {
    const archive = unpackedArchive();
    await archive.run(["install"], { config: "steward.yaml" });

    const started = await archive.run(["start"]);
    const running = await archive.run(["status"]);
    const stopped = await archive.run(["stop"]);
    const stoppedStatus = await archive.run(["status"]);
    const uninstalled = await archive.run(["uninstall"]);
    const gone = await archive.run(["status"]);

    expect(
      [started, running, stopped, stoppedStatus, uninstalled, gone].map(({ code, out }) => [code, out]),
    ).toEqual([
      [0, "service Steward: started\n"],
      [0, "service Steward: running\n"],
      [0, "service Steward: stopped\n"],
      [3, "service Steward: stopped\n"],
      [0, "service Steward: uninstalled (its configuration, data and logs are left where they are)\n"],
      [4, "service Steward: not installed\n"],
    ]);
    expect(existsSync(join(archive.folder, "steward-service.xml"))).toBe(false);
    expect(existsSync(join(archive.folder, "steward-service.exe"))).toBe(true);
  });

  it("stops a running service before uninstalling it, and removes a named service's copy of the wrapper", async () => {
    const archive = unpackedArchive();
    await archive.run(["install"], { config: "steward.yaml", name: "Second" });
    await archive.run(["start"], { name: "Second" });

    const uninstalled = await archive.run(["uninstall"], { name: "Second" });

    expect(uninstalled.code).toBe(0);
    expect(archive.calls()).toEqual([
      "steward-service-Second install",
      "steward-service-Second start",
      "steward-service-Second status",
      "steward-service-Second stop",
      "steward-service-Second status",
      "steward-service-Second uninstall",
    ]);
    expect(existsSync(join(archive.folder, "steward-service-Second.exe"))).toBe(false);
    expect(existsSync(join(archive.folder, "steward-service-Second.xml"))).toBe(false);
  });

  it("says a service is not installed from here without running the wrapper", async () => {
    const archive = unpackedArchive();

    const result = await archive.run(["start"]);

    expect(result.code).toBe(1);
    expect(result.err).toContain("service Steward is not installed from");
    expect(archive.calls()).toEqual([]);
  });
});

describe("where steward service refuses", () => {
  it("exits 1 on Linux with what to use instead", async () => {
    const io = recordingCliIo(scratchDirectory("steward-service-linux-"));

    const code = exitCode(await runCli(["service", "status"], io));

    expect(code).toBe(1);
    expect(io.err()).toBe(
      `steward: steward service runs on Windows only (this is ${process.platform}); here, run "steward start" under a process manager such as systemd\n`,
    );
  });

  it("exits 1 on Windows when Steward runs from source, and when the wrapper is not beside steward.exe", async () => {
    const archive = unpackedArchive();
    const request: ServiceRequest = serviceRequest(["status"], {});
    const fromSource = recordingCliIo(archive.folder);
    const withoutWrapper = recordingCliIo(archive.folder);

    const codes = [
      await runService(request, fromSource, { platform: "win32", executable: undefined }),
      await runService(request, withoutWrapper, {
        platform: "win32",
        executable: join(archive.folder, "sub", "steward.exe"),
      }),
    ];

    expect(codes).toEqual([1, 1]);
    expect(fromSource.err()).toContain(
      "steward service runs from steward.exe of the Windows archive (npm run package), not from source",
    );
    expect(withoutWrapper.err()).toContain("steward-service.exe is missing beside");
  });

  it.each([
    [[], "service needs one of install, uninstall, start, stop, status"],
    [["restart"], 'service needs one of install, uninstall, start, stop, status (got "restart")'],
    [["install"], "service install needs --config FILE"],
    [["start", "now"], 'unexpected argument "now"'],
  ])("refuses `service %j` with a usage message", async (args, message) => {
    const io = recordingCliIo(scratchDirectory("steward-service-usage-"));

    const code = exitCode(await runCli(["service", ...args], io));

    expect(code).toBe(1);
    expect(io.err()).toContain(message);
    expect(io.err()).toContain("Usage: steward");
  });

  it("refuses service options given to another command, and --account given to start", async () => {
    const io = recordingCliIo(scratchDirectory("steward-service-options-"));
    const other = recordingCliIo(scratchDirectory("steward-service-options-"));

    expect(exitCode(await runCli(["start", "--name", "Steward"], io))).toBe(1);
    expect(exitCode(await runCli(["service", "start", "--account", "LocalSystem"], other))).toBe(1);
    expect(io.err()).toContain("--name is an option of service only");
    expect(other.err()).toContain("--config and --account are options of service install only");
  });
});
