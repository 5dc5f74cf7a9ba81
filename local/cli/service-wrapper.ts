/**
 * The Windows service wrapper beside steward.exe (steward-service.exe, WinSW 1.17) and how it is
 * run. WinSW reads the XML file named after its own executable, so the default service uses the
 * shipped wrapper (steward-service.exe with steward-service.xml) and a service of another name a
 * copy of it named after the service (steward-service-<name>.exe with its own XML). The wrapper
 * is a .NET Framework program; Windows Server has the runtime it needs.
 */
import { execFile } from "node:child_process";
import { copyFileSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { DEFAULT_SERVICE_NAME } from "./service-definition.ts";

/** The wrapper's file name in the archive, beside steward.exe. */
export const WRAPPER_FILE = "steward-service.exe";
/** The .NET runtime versions the wrapper may run on, read by .NET from `<wrapper>.config`. */
const RUNTIME_CONFIG_SUFFIX = ".config";

export interface ServiceWrapper {
  /** The wrapper that serves this service. */
  exe: string;
  /** Its XML: the service's definition. */
  xml: string;
  /** True when `exe` is a copy made for this service (removed on uninstall). */
  copied: boolean;
}

/** The wrapper files of service `name`, for the steward.exe at `executable`. */
export function wrapperFor(executable: string, name: string): ServiceWrapper {
  const folder = dirname(executable);
  const shipped = name.toLowerCase() === DEFAULT_SERVICE_NAME.toLowerCase();
  const base = shipped ? "steward-service" : `steward-service-${name}`;
  return { exe: join(folder, `${base}.exe`), xml: join(folder, `${base}.xml`), copied: !shipped };
}

/** The shipped wrapper, or undefined when it is missing beside steward.exe. */
export function shippedWrapper(executable: string): string | undefined {
  const file = join(dirname(executable), WRAPPER_FILE);
  return existsSync(file) ? file : undefined;
}

/** Copies the shipped wrapper (and its runtime file) to a service's own name. */
export function copyWrapper(shipped: string, wrapper: ServiceWrapper): void {
  copyFileSync(shipped, wrapper.exe);
  if (existsSync(`${shipped}${RUNTIME_CONFIG_SUFFIX}`)) {
    copyFileSync(`${shipped}${RUNTIME_CONFIG_SUFFIX}`, `${wrapper.exe}${RUNTIME_CONFIG_SUFFIX}`);
  }
}

export interface WrapperRun {
  /** The wrapper's exit status; null when it could not be started at all. */
  code: number | null;
  /** What it printed, standard output then standard error, trimmed. */
  output: string;
}

/** Runs `wrapper.exe command`, collecting what it prints. */
export function runWrapper(wrapper: ServiceWrapper, command: string): Promise<WrapperRun> {
  return new Promise((resolve) => {
    execFile(wrapper.exe, [command], { windowsHide: true, timeout: 60_000 }, (error, stdout, stderr) => {
      const output = `${stdout}${stderr}`.trim();
      if (error === null) resolve({ code: 0, output });
      else if (typeof error.code === "number") resolve({ code: error.code, output });
      else resolve({ code: null, output: output === "" ? error.message : `${output}\n${error.message}` });
    });
  });
}
