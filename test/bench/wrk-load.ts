/**
 * Load from `wrk` (Debian's package: a C client on one thread that drives a Node server harder
 * than autocannon, which shares its core with JavaScript): POSTs `body` to `url` over
 * `connections` keep-alive connections for `seconds`, and reads back the request rate, the p50
 * and p99 latency and the non-2xx count. Absent `wrk`, `wrkAvailable()` is false and the caller reports
 * that instead.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

export interface WrkResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
}

export function wrkAvailable(): boolean {
  try {
    execFileSync("wrk", ["--version"], { stdio: "ignore" });
    return true;
  } catch (error) {
    // wrk --version prints its banner and exits 1; only a missing binary is "not available".
    return (error as NodeJS.ErrnoException).code !== "ENOENT";
  }
}

/**
 * The request of every connection, as a wrk Lua script (headers and body as Lua long strings; a
 * long string as a table key needs the spaces: `t[[==[` would open a string at `[[`).
 */
function script(headers: Record<string, string>, body: string): string {
  const long = (text: string) => `[==[${text}]==]`;
  const lines = ['wrk.method = "POST"', `wrk.body = ${long(body)}`];
  for (const [name, value] of Object.entries(headers))
    lines.push(`wrk.headers[ ${long(name)} ] = ${long(value)}`);
  return `${lines.join("\n")}\n`;
}

function durationMs(text: string): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text);
  if (match === null) return Number.NaN;
  const value = Number(match[1]);
  const unit = match[2];
  return unit === "us" ? value / 1000 : unit === "ms" ? value : unit === "s" ? value * 1000 : value * 60_000;
}

export async function wrkPost(options: {
  url: string;
  headers: Record<string, string>;
  body: string;
  seconds: number;
  connections: number;
}): Promise<WrkResult> {
  const directory = mkdtempSync(join(tmpdir(), "steward-wrk-"));
  try {
    const file = join(directory, "post.lua");
    writeFileSync(file, script(options.headers, options.body));
    const { stdout } = await promisify(execFile)("wrk", [
      "-t1",
      `-c${options.connections}`,
      `-d${options.seconds}s`,
      "--latency",
      "-s",
      file,
      options.url,
    ]);
    const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]);
    const p50 = durationMs(/^\s+50%\s+(\S+)/m.exec(stdout)?.[1] ?? "");
    const p99 = durationMs(/^\s+99%\s+(\S+)/m.exec(stdout)?.[1] ?? "");
    const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0);
    if (!Number.isFinite(rps)) throw new Error(`unexpected wrk output:\n${stdout}`);
    return { requestsPerSecond: Math.round(rps), p50Ms: p50, p99Ms: p99, non2xx };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
