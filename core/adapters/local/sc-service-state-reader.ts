/**
 * The service state reader (core/service-monitor/service-state-reader.ts) over Windows' own
 * `sc.exe`: `sc.exe \\HOST query NAME` for the state, then `sc.exe \\HOST qc NAME` for the display
 * name and start type. Run with execFile, never a shell, so a host or service name is one argument
 * whatever it holds; each run is killed after `timeoutMs`, as an unreachable host can keep sc.exe
 * waiting on RPC for tens of seconds. sc.exe writes in the console's code page; the names it prints
 * are read as Latin-1, which keeps the ASCII of the state lines whatever that page is.
 */
import { execFile } from "node:child_process";
import { parseScConfig, parseScFailure, parseScQuery } from "../../service-monitor/sc-output.ts";
import type { ServiceReading, ServiceStateReader } from "../../service-monitor/service-state-reader.ts";

export interface ScServiceStateReaderOptions {
  /** How long one sc.exe run may take before it is killed. */
  timeoutMs: number;
  /** The program to run; `sc.exe` (found on the PATH) by default. */
  command?: string;
}

interface ScRun {
  readonly stdout: string;
  /** Why the run failed to start or was killed, when it did. */
  readonly problem: "timeout" | "not started" | undefined;
  readonly detail: string;
}

function runSc(command: string, args: readonly string[], timeoutMs: number): Promise<ScRun> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { timeout: timeoutMs, windowsHide: true, encoding: "latin1", maxBuffer: 64 * 1024 },
      (error, stdout, stderr) => {
        const output = `${stdout}${stderr}`;
        if (error === null) return resolve({ stdout: output, problem: undefined, detail: "" });
        const failure = error as NodeJS.ErrnoException & { killed?: boolean };
        if (failure.killed === true)
          return resolve({ stdout: output, problem: "timeout", detail: `no answer within ${timeoutMs} ms` });
        if (typeof failure.code === "string")
          return resolve({ stdout: output, problem: "not started", detail: `${command}: ${failure.code}` });
        // sc.exe exits with the Windows error code; its output says which.
        resolve({ stdout: output, problem: undefined, detail: `exit code ${String(failure.code)}` });
      },
    );
  });
}

export function createScServiceStateReader(options: ScServiceStateReaderOptions): ServiceStateReader {
  const command = options.command ?? "sc.exe";
  const run = (host: string, verb: "query" | "qc", service: string) =>
    runSc(command, [`\\\\${host}`, verb, service], options.timeoutMs);
  return {
    async read(host, service): Promise<ServiceReading> {
      const query = await run(host, "query", service);
      if (query.problem === "timeout")
        return { ok: false, failure: "timeout", code: undefined, reason: query.detail };
      if (query.problem === "not started")
        return { ok: false, failure: "other", code: undefined, reason: query.detail };
      const state = parseScQuery(query.stdout);
      if (state === undefined) {
        const failed = parseScFailure(query.stdout);
        if (failed !== undefined) return { ok: false, ...failed };
        return {
          ok: false,
          failure: "other",
          code: undefined,
          reason: `sc.exe query gave no STATE (${query.detail || "exit code 0"})`,
        };
      }
      // The display name and start type are extras: a reading stands without them.
      const config = await run(host, "qc", service);
      const found = parseScConfig(config.stdout);
      return {
        ok: true,
        ...state,
        displayName: found?.displayName ?? service,
        startType: found?.startType ?? "",
        exePath: found?.exePath ?? "",
        dependencies: found?.dependencies ?? [],
      };
    },
  };
}
