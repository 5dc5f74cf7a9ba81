/**
 * `steward service install|uninstall|start|stop|status`: Steward as a Windows service, through
 * the service wrapper shipped beside steward.exe (service-wrapper.ts; what it is told is in
 * service-definition.ts). Only steward.exe of the Windows archive can do this: the service runs
 * that executable, and the wrapper is beside it. Elsewhere the command says so and exits 1.
 *
 * `install` checks the configuration first (a service that cannot start is worse than none),
 * refuses to overwrite the definition of a service installed from the same folder, and removes
 * what it wrote when the wrapper fails, so a failed install leaves nothing behind. `uninstall`
 * stops a running service first. `status` exits 0 running, 3 stopped, 4 not installed (the
 * codes of `systemctl status`), 1 when the wrapper fails.
 */
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { SERVICE_VERSION } from "../../core/version.ts";
import type { CliIo } from "./cli.ts";
import { loadOrReport } from "./load-or-report.ts";
import {
  accountName,
  checkServiceName,
  DEFAULT_ACCOUNT,
  DEFAULT_SERVICE_NAME,
  parseAccount,
  type ServiceAccount,
  ServiceDefinitionError,
  wrapperXml,
} from "./service-definition.ts";
import {
  copyWrapper,
  runWrapper,
  type ServiceWrapper,
  shippedWrapper,
  WRAPPER_FILE,
  type WrapperRun,
  wrapperFor,
} from "./service-wrapper.ts";

export const SERVICE_ACTIONS = ["install", "uninstall", "start", "stop", "status"] as const;
export type ServiceAction = (typeof SERVICE_ACTIONS)[number];

/** The options only `steward service` takes (besides --config). */
export const SERVICE_OPTIONS = {
  name: { type: "string" },
  account: { type: "string" },
} as const;

export interface ServiceRequest {
  action: ServiceAction;
  name: string;
  /** install only. */
  config?: string;
  account: ServiceAccount;
}

/** Where this process runs: the operating system, and steward.exe when it is one. */
export interface ServiceHost {
  platform: NodeJS.Platform;
  /** The running executable of the Windows archive; undefined when node runs Steward from source. */
  executable: string | undefined;
}

/** How long uninstall and stop wait for a running service to stop (its own stop takes ≤ 10 s). */
const STOP_WAIT_MS = 20_000;
const STOP_POLL_MS = 500;

/** The request `steward service ARGS` makes; throws ServiceDefinitionError for a usage error. */
export function serviceRequest(
  args: readonly string[],
  values: { config?: string; name?: string; account?: string },
): ServiceRequest {
  const [action, extra] = args;
  if (action === undefined || !(SERVICE_ACTIONS as readonly string[]).includes(action)) {
    throw new ServiceDefinitionError(
      `service needs one of ${SERVICE_ACTIONS.join(", ")}${action === undefined ? "" : ` (got "${action}")`}`,
    );
  }
  if (extra !== undefined) throw new ServiceDefinitionError(`unexpected argument "${extra}"`);
  if (action === "install" && values.config === undefined) {
    throw new ServiceDefinitionError(
      "service install needs --config FILE: the configuration the service runs with",
    );
  }
  if (action !== "install" && (values.config !== undefined || values.account !== undefined)) {
    throw new ServiceDefinitionError(`--config and --account are options of service install only`);
  }
  return {
    action: action as ServiceAction,
    name: checkServiceName(values.name ?? DEFAULT_SERVICE_NAME),
    ...(values.config === undefined ? {} : { config: values.config }),
    account: parseAccount(values.account ?? DEFAULT_ACCOUNT),
  };
}

/** Runs the request; returns the exit code. */
export async function runService(request: ServiceRequest, io: CliIo, host: ServiceHost): Promise<number> {
  const fail = (message: string) => {
    io.stderr.write(`steward: ${message}\n`);
    return 1;
  };
  if (host.platform !== "win32") {
    return fail(
      `steward service runs on Windows only (this is ${host.platform}); here, run "steward start" under a process manager such as systemd`,
    );
  }
  if (host.executable === undefined) {
    return fail(
      "steward service runs from steward.exe of the Windows archive (npm run package), not from source",
    );
  }
  const shipped = shippedWrapper(host.executable);
  if (shipped === undefined) {
    return fail(`${WRAPPER_FILE} is missing beside ${host.executable}: unpack the whole archive`);
  }
  const wrapper = wrapperFor(host.executable, request.name);
  if (request.action === "install")
    return install(request, io, { executable: host.executable, shipped, wrapper });
  if (!existsSync(wrapper.xml)) {
    if (request.action === "status") {
      io.stdout.write(`service ${request.name}: not installed\n`);
      return 4;
    }
    return fail(
      `service ${request.name} is not installed from ${dirname(host.executable)} (no ${wrapper.xml})`,
    );
  }
  return ACTIONS[request.action](request.name, wrapper, io);
}

type InstalledAction = (name: string, wrapper: ServiceWrapper, io: CliIo) => Promise<number>;

const ACTIONS: Record<Exclude<ServiceAction, "install">, InstalledAction> = {
  async start(name, wrapper, io) {
    const run = await runWrapper(wrapper, "start");
    if (run.code !== 0) return wrapperFailed(io, wrapper, `start service ${name}`, run);
    io.stdout.write(`service ${name}: started\n`);
    return 0;
  },
  async stop(name, wrapper, io) {
    const run = await runWrapper(wrapper, "stop");
    if (run.code !== 0) return wrapperFailed(io, wrapper, `stop service ${name}`, run);
    const state = await stoppedWithin(wrapper, STOP_WAIT_MS);
    io.stdout.write(
      `service ${name}: ${state === "Stopped" ? "stopped" : `still ${state} after ${STOP_WAIT_MS / 1000} s`}\n`,
    );
    return state === "Stopped" ? 0 : 1;
  },
  async status(name, wrapper, io) {
    const run = await runWrapper(wrapper, "status");
    const state = STATES[run.output];
    if (run.code !== 0 || state === undefined)
      return wrapperFailed(io, wrapper, `read the state of service ${name}`, run);
    io.stdout.write(`service ${name}: ${state.text}\n`);
    return state.exitCode;
  },
  async uninstall(name, wrapper, io) {
    const running = await runWrapper(wrapper, "status");
    if (running.output === "Started") await ACTIONS.stop(name, wrapper, io);
    const run = await runWrapper(wrapper, "uninstall");
    if (run.code !== 0) return wrapperFailed(io, wrapper, `uninstall service ${name}`, run);
    removeWrapperFiles(wrapper);
    io.stdout.write(
      `service ${name}: uninstalled (its configuration, data and logs are left where they are)\n`,
    );
    return 0;
  },
};

/** What the wrapper's `status` prints, as `steward service status` says it. */
const STATES: Readonly<Record<string, { text: string; exitCode: number }>> = {
  Started: { text: "running", exitCode: 0 },
  Stopped: { text: "stopped", exitCode: 3 },
  NonExistent: {
    text: "not installed (the wrapper's definition is here, but Windows has no such service)",
    exitCode: 4,
  },
};

async function stoppedWithin(wrapper: ServiceWrapper, waitMs: number): Promise<string> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const state = (await runWrapper(wrapper, "status")).output;
    if (state !== "Started" || Date.now() >= deadline) return state;
    await new Promise((resolve) => setTimeout(resolve, STOP_POLL_MS));
  }
}

interface InstallFiles {
  executable: string;
  shipped: string;
  wrapper: ServiceWrapper;
}

async function install(request: ServiceRequest, io: CliIo, files: InstallFiles): Promise<number> {
  const { name, account } = request;
  const { wrapper, executable } = files;
  const config = resolve(io.cwd, request.config ?? "");
  if (`${config}${executable}`.includes("%")) {
    io.stderr.write(
      `steward: a path with "%" cannot be given to the service wrapper, which reads %NAME% as an environment variable: ${config}\n`,
    );
    return 1;
  }
  if ((await loadOrReport(config, io)) === undefined) return 1;
  if (existsSync(wrapper.xml)) {
    io.stderr.write(
      `steward: service ${name} is already installed from here (${wrapper.xml}); run "steward service uninstall --name ${name}" first\n`,
    );
    return 1;
  }
  if (wrapper.copied) copyWrapper(files.shipped, wrapper);
  const workingDirectory = dirname(config);
  const logDirectory = join(workingDirectory, "log");
  writeFileSync(
    wrapper.xml,
    wrapperXml({
      name,
      version: SERVICE_VERSION,
      executable,
      config,
      workingDirectory,
      logDirectory,
      account,
    }),
  );
  const run = await runWrapper(wrapper, "install");
  if (run.code !== 0) {
    removeWrapperFiles(wrapper);
    return wrapperFailed(io, wrapper, `install service ${name}; nothing was installed`, run);
  }
  io.stdout.write(installedMessage(name, account, { config, workingDirectory, logDirectory }));
  return 0;
}

function installedMessage(
  name: string,
  account: ServiceAccount,
  where: { config: string; workingDirectory: string; logDirectory: string },
): string {
  const password =
    account.kind === "user"
      ? `Set the account's password in Windows before the first start (services.msc, the service's Log On tab).\n`
      : "";
  // LocalSystem may write anywhere already.
  const grant =
    account.kind === "localsystem"
      ? ""
      : `The account needs to write there: icacls "${where.workingDirectory}" /grant "${accountName(account)}:(OI)(CI)M"\n`;
  return `service ${name}: installed, starts at boot as ${accountName(account)}
  runs:    steward start --config ${where.config}
  in:      ${where.workingDirectory} (the configuration's relative paths start here)
  logs:    ${where.logDirectory}
${grant}${password}Start it: steward service start${name === DEFAULT_SERVICE_NAME ? "" : ` --name ${name}`}
`;
}

function removeWrapperFiles(wrapper: ServiceWrapper): void {
  rmSync(wrapper.xml, { force: true });
  if (wrapper.copied) {
    rmSync(wrapper.exe, { force: true });
    rmSync(`${wrapper.exe}.config`, { force: true });
  }
}

function wrapperFailed(io: CliIo, wrapper: ServiceWrapper, what: string, run: WrapperRun): number {
  const status = run.code === null ? "it could not be run" : `exit status ${run.code}`;
  const said = run.output === "" ? "" : `:\n${run.output}`;
  io.stderr.write(`steward: the service wrapper ${wrapper.exe} could not ${what} (${status})${said}\n`);
  return 1;
}
