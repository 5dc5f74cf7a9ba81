/**
 * Reading the English output of Windows' `sc.exe query NAME` and `sc.exe qc NAME` (CRLF or LF line
 * ends): the `STATE` line of a query, the `DISPLAY_NAME` and `START_TYPE` lines of a config query,
 * and the `[SC] ... FAILED <code>:` line followed by Windows' message when sc.exe could not answer.
 * Kept apart from the adapter that runs sc.exe so that recorded outputs test it on any OS.
 */
import { SERVICE_STATES, type ServiceReadingFailure, type ServiceState } from "./service-state-reader.ts";

export interface ScFailure {
  readonly failure: ServiceReadingFailure;
  readonly code: number;
  /** e.g. "OpenSCManager FAILED 1722: The RPC server is unavailable." */
  readonly reason: string;
}

/** Windows error codes that mean the host could not be reached. */
const UNREACHABLE_CODES = new Set([
  53, // ERROR_BAD_NETPATH: the network path was not found
  1722, // RPC_S_SERVER_UNAVAILABLE
  1717, // RPC_S_UNKNOWN_IF
  1753, // EPT_S_NOT_REGISTERED
  1726, // RPC_S_CALL_FAILED
]);

function failureOf(code: number): ServiceReadingFailure {
  if (code === 1060) return "missing";
  if (code === 5) return "denied";
  if (UNREACHABLE_CODES.has(code)) return "unreachable";
  return "other";
}

/** Lines without their ends and surrounding white space, empty ones left out. */
function linesOf(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");
}

/** The value of `KEY : value` lines, or undefined when the key is not there. */
function field(lines: readonly string[], key: string): string | undefined {
  const prefix = new RegExp(`^${key}\\s*:\\s?(.*)$`);
  for (const line of lines) {
    const match = prefix.exec(line);
    if (match) return (match[1] ?? "").trim();
  }
  return undefined;
}

/** The failure sc.exe reported (`[SC] <call> FAILED <code>:` and the message after it), if any. */
export function parseScFailure(text: string): ScFailure | undefined {
  const lines = linesOf(text);
  const index = lines.findIndex((line) => /^\[SC\] .* FAILED \d+:?$/.test(line));
  if (index < 0) return undefined;
  const head = (lines[index] ?? "").replace(/^\[SC\] /, "");
  const code = Number(/FAILED (\d+)/.exec(head)?.[1]);
  const message = lines[index + 1];
  return {
    failure: failureOf(code),
    code,
    reason: message === undefined ? head : `${head} ${message}`,
  };
}

/** The `STATE` of `sc.exe query`, e.g. `4  RUNNING`; undefined when the output has none. */
export function parseScQuery(text: string): { state: ServiceState; stateNum: number } | undefined {
  const value = field(linesOf(text), "STATE");
  const match = value === undefined ? null : /^(\d+)\s+([A-Z_]+)/.exec(value);
  if (!match) return undefined;
  const name = match[2] as ServiceState;
  if (!(name in SERVICE_STATES)) return undefined;
  return { state: name, stateNum: Number(match[1]) };
}

/** Butler's words for `START_TYPE`'s number, which its points and messages carry. */
const START_TYPES: Record<string, string> = {
  "0": "Boot",
  "1": "System",
  "2": "Automatic",
  "3": "Manual",
  "4": "Disabled",
};

export interface ScConfig {
  readonly displayName: string;
  /** Butler's words: `Automatic`, `Automatic (delayed start)`, `Manual`, `Disabled`, ... */
  readonly startType: string;
  /** `BINARY_PATH_NAME`, with its arguments. */
  readonly exePath: string;
  /** `DEPENDENCIES`: the first on its line, each further one on a line of its own. */
  readonly dependencies: readonly string[];
}

/** The start type's words: the number's, `(delayed start)` added for `AUTO_START (DELAYED)`. */
function startTypeOf(value: string): string {
  const number = /^\d+/.exec(value)?.[0] ?? "";
  const words = START_TYPES[number] ?? value.replace(/^\d+\s+/, "").replace(/\s+/g, " ");
  return /\(DELAYED\)/.test(value) ? `${words} (delayed start)` : words;
}

/** The service's dependencies: the `DEPENDENCIES` value and the `: NAME` lines right after it. */
function dependenciesOf(lines: readonly string[]): string[] {
  const index = lines.findIndex((line) => /^DEPENDENCIES\s*:/.test(line));
  if (index < 0) return [];
  const found = [(lines[index] ?? "").replace(/^DEPENDENCIES\s*:\s*/, "")];
  for (const line of lines.slice(index + 1)) {
    if (!line.startsWith(":")) break;
    found.push(line.replace(/^:\s*/, ""));
  }
  return found.filter((name) => name !== "");
}

/** What `sc.exe qc` says of the service; undefined when it has no `DISPLAY_NAME` or `START_TYPE`. */
export function parseScConfig(text: string): ScConfig | undefined {
  const lines = linesOf(text);
  const displayName = field(lines, "DISPLAY_NAME");
  const startType = field(lines, "START_TYPE");
  if (displayName === undefined || startType === undefined) return undefined;
  return {
    displayName,
    startType: startTypeOf(startType),
    exePath: field(lines, "BINARY_PATH_NAME") ?? "",
    dependencies: dependenciesOf(lines),
  };
}
