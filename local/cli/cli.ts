/**
 * The `steward` command line: `start` (default), `check-config FILE`, `init-config`,
 * `migrate-config FILE`, `healthcheck`, `simulate-platform`, `send-test-events`,
 * `qlik-cloud webhook`, `simulate-qlik-cloud`, `service ACTION` (Windows). Returns an exit code for
 * one-shot commands, or what runs for `start` and the simulators; signal handling and
 * process.exit live in main.ts only.
 */

import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { getHeapStatistics } from "node:v8";
import { parse } from "yaml";
import { dailyFileSink } from "../../core/adapters/local/daily-file-sink.ts";
import { isPackagedExecutable } from "../../core/adapters/shipped-files.ts";
import { type Config, defaultConfig, formatProblem, renderTemplate } from "../../core/config/index.ts";
import {
  consoleSink,
  createLogger,
  isLogLevel,
  LOG_LEVELS,
  type LogSink,
  type RootLogger,
} from "../../core/logging/index.ts";
import type { Stoppable } from "../../core/ports.ts";
import { systemClock } from "../../core/system-clock.ts";
import { SERVICE_NAME, SERVICE_VERSION } from "../../core/version.ts";
import { createShutdownSchedule, type ShutdownSchedule } from "../shutdown-budget.ts";
import { startLocal } from "../wiring.ts";
import { checkHealth } from "./healthcheck.ts";
import { loadOrReport } from "./load-or-report.ts";
import { migrateConfig } from "./migrate-config.ts";
import { SUPPORTED_NODE_RANGE, unsupportedNodeWarning } from "./node-lines.ts";
import { QLIK_CLOUD_WEBHOOK_OPTIONS, registerWebhook } from "./qlik-cloud-webhook.ts";
import { sendTestEvents, testEventKinds } from "./send-test-events.ts";
import {
  runService,
  SERVICE_OPTIONS,
  type ServiceHost,
  type ServiceRequest,
  serviceRequest,
} from "./service-command.ts";
import { DEFAULT_SERVICE_NAME, ServiceDefinitionError } from "./service-definition.ts";
import {
  DEFAULT_CERTS_DIR,
  DEFAULT_LICENSE_EXPIRES_IN_DAYS,
  DEFAULT_SIMULATED_HOST,
  DEFAULT_SIMULATED_PORT,
  MAX_SIMULATED_SERVERS,
  parseSimulatePlatformOptions,
  SIMULATE_PLATFORM_OPTIONS,
  type SimulatePlatformOptions,
  SimulatePlatformUsageError,
  simulatePlatform,
} from "./simulate-platform.ts";
import {
  DEFAULT_EVERY_SECONDS,
  DEFAULT_STEWARD_URL,
  MAX_SIMULATED_TENANTS,
  parseSimulateQlikCloudOptions,
  SIMULATE_QLIK_CLOUD_OPTIONS,
  SimulateQlikCloudUsageError,
  simulateQlikCloud,
} from "./simulate-qlik-cloud.ts";
import { applySstLinks } from "./sst-links.ts";
import { enabledSwitchesWithoutEffect } from "./unused-switches.ts";

const MIB = 1024 * 1024;

export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: Record<string, string | undefined>;
  cwd: string;
  /** The operating system settings are checked for; `process.platform` when left out. */
  platform?: NodeJS.Platform;
}

/**
 * What a long-running command hands main.ts, which stops `parts` on SIGINT/SIGTERM and logs
 * through `logger`. `config` gives the crash handler its settings (`crashFile`); `shutdown`, when
 * given, the exit status once stopped (1 when events were lost).
 */
export interface RunningSteward {
  config: Config;
  logger: RootLogger;
  parts: Stoppable;
  shutdown?: ShutdownSchedule;
}

export type CliResult = { exitCode: number } | { running: RunningSteward };

export const USAGE = `Usage: steward [command] [options]

Commands:
  start                  run Steward (the default command)
  check-config FILE      validate a configuration file; prints every problem, or "ok"
  init-config            print a complete, commented configuration template
  migrate-config FILE    print the Steward configuration equivalent to a Butler SOS one;
                         or to a Butler one (told apart by the top-level key); standard
                         error lists what was left out and why, and what check-config
                         says of the result (exit 0 ok, 2 problems to fix)
  healthcheck            ask a running Steward's container health check (port from --config);
                         exit 0 when healthy, 1 otherwise (for a container HEALTHCHECK)
  simulate-platform      run simulated platform servers to point Steward at, until Ctrl-C;
                         writes a configuration that polls them to standard output
  send-test-events [user] [log] [task]
                         send a test datagram of each kind named to its UDP listener in
                         --config (without names: the kinds whose listeners are on; without
                         --config: all three, to 127.0.0.1 ports 9997, 9996 and 9998)
  service ACTION         Windows, steward.exe only: install, uninstall, start, stop or
                         status of Steward as a Windows service (install needs --config;
                         status exits 0 running, 3 stopped, 4 not installed)
  qlik-cloud webhook --tenant NAME --url PUBLIC_URL [--dry-run]
                         create or update the webhook of a tenant of --config's qlikCloud.tenants
                         that sends Steward its finished reloads, signed with its secret;
                         --dry-run prints the request instead (secret masked)
  simulate-qlik-cloud    run simulated Qlik Cloud tenants to point Steward at, until Ctrl-C;
                         writes a configuration that takes their reloads to standard output

Options:
  -c, --config FILE      configuration file (.yaml or .yml); default: the embedded configuration
  -l, --log-level LEVEL  override logLevel (${LOG_LEVELS.join(", ")})
  -h, --help             show this help
  -v, --version          show the version

Options of service:
  --name NAME            the service's name (default ${DEFAULT_SERVICE_NAME})
  --account ACCOUNT      install: the account it runs as: LocalService (default),
                         NetworkService, LocalSystem or DOMAIN\\user

Options of simulate-platform:
  --port N               first port: server i listens on N+i (default ${DEFAULT_SIMULATED_PORT}, the
                         engine's port); 0: any free ports
  --servers N            how many servers, 1 to ${MAX_SIMULATED_SERVERS} (default 1)
  --host HOST            listening address (default ${DEFAULT_SIMULATED_HOST})
  --certs DIR            folder of root.pem, server.pem, server_key.pem, client.pem and
                         client_key.pem (default ./${DEFAULT_CERTS_DIR})
  --generate-certs       first write new throw-away certificates into DIR, or use those an
                         earlier run wrote there while they serve; other certificate
                         files there are refused, unless --force
  --force                with --generate-certs: replace the certificate files in DIR
  --task-events HOST:PORT  also send a failed, an aborted and a successful reload-task
                         datagram in turn every few seconds to HOST:PORT
  --license-expires-in-days N
                         the simulated server licence expires N days from today (default
                         ${DEFAULT_LICENSE_EXPIRES_IN_DAYS}; negative: it has already expired)
  --write-config FILE    write the configuration to FILE instead of standard output (a file
                         simulate-platform did not write is never replaced)

Options of simulate-qlik-cloud:
  --tenants N            how many tenants, 1 to ${MAX_SIMULATED_TENANTS} (default 2)
  --port N               first port: tenant i listens on N+i (default 0: free ports)
  --host HOST            listening address (default 127.0.0.1)
  --steward URL          Steward's ingest API, where the webhooks go (default ${DEFAULT_STEWARD_URL})
  --every SECONDS        each tenant ends a reload and delivers its event this often (default
                         ${DEFAULT_EVERY_SECONDS}; 0: none)
  --write-config FILE    as for simulate-platform
`;

export async function runCli(argv: readonly string[], io: CliIo): Promise<CliResult> {
  let parsed: ReturnType<typeof parseCliArgs>;
  try {
    parsed = parseCliArgs(argv);
  } catch (error) {
    io.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return { exitCode: 1 };
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(USAGE);
    return { exitCode: 0 };
  }
  if (values.version) {
    io.stdout.write(`${SERVICE_NAME} ${SERVICE_VERSION}\n`);
    return { exitCode: 0 };
  }
  const [command = "start", ...rest] = positionals;
  const misplaced = misplacedOption(command, values);
  if (misplaced !== undefined) return usageError(io, misplaced);
  switch (command) {
    case "init-config":
      io.stdout.write(renderTemplate());
      return { exitCode: 0 };
    case "check-config": {
      const file = rest[0] ?? values.config;
      if (file === undefined) return usageError(io, "check-config needs a FILE");
      const config = await loadOrReport(file, io, { warnings: true });
      if (config === undefined) return { exitCode: 1 };
      io.stdout.write("ok\n");
      return { exitCode: 0 };
    }
    case "migrate-config": {
      const file = rest[0] ?? values.config;
      if (file === undefined)
        return usageError(io, "migrate-config needs a FILE (a Butler SOS or Butler configuration)");
      if (rest.length > 1) return usageError(io, `unexpected argument "${rest[1]}"`);
      return { exitCode: await migrateConfig(file, io) };
    }
    case "healthcheck": {
      if (rest.length > 0) return usageError(io, `unexpected argument "${rest[0]}"`);
      const config = values.config === undefined ? defaultConfig() : await loadOrReport(values.config, io);
      if (config === undefined) return { exitCode: 1 };
      const outcome = await checkHealth(config);
      (outcome.healthy ? io.stdout : io.stderr).write(`${outcome.message}\n`);
      return { exitCode: outcome.healthy ? 0 : 1 };
    }
    case "start":
      if (rest[0] !== undefined && isCommand(rest[0])) return commandAfterStart(argv, io);
      if (rest.length > 0) return usageError(io, `unexpected argument "${rest[0]}"`);
      return start(values, io);
    case "simulate-platform":
      if (rest.length > 0) return usageError(io, `unexpected argument "${rest[0]}"`);
      return startSimulatedPlatform(values, io);
    case "simulate-qlik-cloud":
      if (rest.length > 0) return usageError(io, `unexpected argument "${rest[0]}"`);
      return startSimulatedCloud(values, io);
    case "qlik-cloud":
      return qlikCloudCommand(rest, values, io);
    case "send-test-events": {
      const kinds = testEventKinds(rest);
      if (typeof kinds === "string") return usageError(io, kinds);
      const config = values.config === undefined ? defaultConfig() : await loadOrReport(values.config, io);
      if (config === undefined) return { exitCode: 1 };
      return { exitCode: await sendTestEvents(config, kinds, values.config, io) };
    }
    case "service":
      return service(rest, values, io);
    default:
      return usageError(io, `unknown command "${command}"`);
  }
}

function parseCliArgs(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      config: { type: "string", short: "c" },
      "log-level": { type: "string", short: "l" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean", short: "v" },
      ...SIMULATE_PLATFORM_OPTIONS,
      ...SERVICE_OPTIONS,
      ...SIMULATE_QLIK_CLOUD_OPTIONS,
      ...QLIK_CLOUD_WEBHOOK_OPTIONS,
    },
  });
}

type CliValues = ReturnType<typeof parseCliArgs>["values"];

/** The commands each command-specific option belongs to. */
const OPTION_COMMANDS: Readonly<Record<string, readonly string[]>> = {
  ...Object.fromEntries(Object.keys(SIMULATE_PLATFORM_OPTIONS).map((name) => [name, ["simulate-platform"]])),
  ...Object.fromEntries(
    Object.keys(SIMULATE_QLIK_CLOUD_OPTIONS).map((name) => [name, ["simulate-qlik-cloud"]]),
  ),
  ...Object.fromEntries(Object.keys(QLIK_CLOUD_WEBHOOK_OPTIONS).map((name) => [name, ["qlik-cloud"]])),
  ...Object.fromEntries(Object.keys(SERVICE_OPTIONS).map((name) => [name, ["service"]])),
  port: ["simulate-platform", "simulate-qlik-cloud"],
  host: ["simulate-platform", "simulate-qlik-cloud"],
  "write-config": ["simulate-platform", "simulate-qlik-cloud"],
};

/** An option given to a command it does not belong to, as a message; undefined when all fit. */
function misplacedOption(command: string, values: CliValues): string | undefined {
  if ((command === "simulate-platform" || command === "simulate-qlik-cloud") && values.config !== undefined) {
    return `--config is not an option of ${command}`;
  }
  const misplaced = Object.entries(OPTION_COMMANDS).find(
    ([name, commands]) => values[name as keyof CliValues] !== undefined && !commands.includes(command),
  );
  return misplaced === undefined
    ? undefined
    : `--${misplaced[0]} is an option of ${misplaced[1].join(" and ")} only`;
}

async function startSimulatedCloud(values: CliValues, io: CliIo): Promise<CliResult> {
  const level = values["log-level"];
  if (level !== undefined && !isLogLevel(level)) {
    return usageError(io, `--log-level must be one of ${LOG_LEVELS.join(", ")} (got "${level}")`);
  }
  try {
    return await simulateQlikCloud(parseSimulateQlikCloudOptions(values, io.cwd), io, level);
  } catch (error) {
    if (error instanceof SimulateQlikCloudUsageError) return usageError(io, error.message);
    throw error;
  }
}

/** `qlik-cloud webhook --tenant NAME --url URL [--dry-run]`, with the tenant from --config. */
async function qlikCloudCommand(rest: readonly string[], values: CliValues, io: CliIo): Promise<CliResult> {
  if (rest[0] !== "webhook") return usageError(io, 'qlik-cloud takes one subcommand: "webhook"');
  if (rest.length > 1) return usageError(io, `unexpected argument "${rest[1]}"`);
  if (values.config === undefined)
    return usageError(io, "qlik-cloud webhook needs --config FILE, which names the tenant");
  if (values.tenant === undefined || values.url === undefined)
    return usageError(io, "qlik-cloud webhook needs --tenant NAME and --url PUBLIC_URL");
  const config = await loadOrReport(values.config, io);
  if (config === undefined) return { exitCode: 1 };
  return {
    exitCode: await registerWebhook(
      config,
      { tenant: values.tenant, url: values.url, dryRun: values["dry-run"] === true },
      io,
    ),
  };
}

/** Where `steward service` runs: the operating system, and steward.exe when this is it. */
function serviceHost(): ServiceHost {
  return { platform: process.platform, executable: isPackagedExecutable() ? process.execPath : undefined };
}

async function service(args: readonly string[], values: CliValues, io: CliIo): Promise<CliResult> {
  let request: ServiceRequest;
  try {
    request = serviceRequest(args, values);
  } catch (error) {
    if (error instanceof ServiceDefinitionError) return usageError(io, error.message);
    throw error;
  }
  return { exitCode: await runService(request, io, serviceHost()) };
}

async function startSimulatedPlatform(values: CliValues, io: CliIo): Promise<CliResult> {
  const level = values["log-level"];
  if (level !== undefined && !isLogLevel(level)) {
    return usageError(io, `--log-level must be one of ${LOG_LEVELS.join(", ")} (got "${level}")`);
  }
  let options: SimulatePlatformOptions;
  try {
    options = parseSimulatePlatformOptions(values, io.cwd);
  } catch (error) {
    if (error instanceof SimulatePlatformUsageError) return usageError(io, error.message);
    throw error;
  }
  return simulatePlatform(options, io, level);
}

async function start(values: { config?: string; "log-level"?: string }, io: CliIo): Promise<CliResult> {
  const levelOverride = values["log-level"];
  if (levelOverride !== undefined && !isLogLevel(levelOverride)) {
    return usageError(io, `--log-level must be one of ${LOG_LEVELS.join(", ")} (got "${levelOverride}")`);
  }
  const loaded = values.config === undefined ? defaultConfig() : await loadOrReport(values.config, io);
  if (loaded === undefined) return { exitCode: 1 };
  // Under `npx sst dev` (infra/dev.ts) the dev stage's queue, tables and bucket come from SST's links.
  const linked = applySstLinks(loaded, io.env);
  if (!linked.ok) {
    io.stderr.write("SST resource links are invalid:\n");
    for (const problem of linked.problems) io.stderr.write(`${formatProblem(problem)}\n`);
    return { exitCode: 1 };
  }
  const config: Config =
    levelOverride === undefined ? linked.config : { ...linked.config, logLevel: levelOverride };

  const logger = createLogger({ level: config.logLevel, sinks: logSinks(config, io) });
  logger.info(`${SERVICE_NAME} ${SERVICE_VERSION} starting`, {
    config: values.config ?? "embedded default",
    node: process.versions.node,
    // What node was started with (bin/node-flags.mjs): the V8 heap's limit, young generation included.
    heapLimitMb: Math.round(getHeapStatistics().heap_size_limit / MIB),
    pid: process.pid,
  });
  const unsupportedNode = unsupportedNodeWarning(process.versions.node);
  if (unsupportedNode !== undefined) logger.warn(unsupportedNode, { supported: SUPPORTED_NODE_RANGE });
  if (linked.applied !== undefined) {
    logger.info("cloud stores from SST links", {
      stage: linked.applied.stage,
      links: linked.applied.links.join(","),
    });
  }
  const notRun = enabledSwitchesWithoutEffect(config);
  if (notRun.length > 0) {
    logger.warn("these enabled settings have no effect: no enabled part sends there", {
      settings: notRun.join(","),
    });
  }
  const shutdown = createShutdownSchedule(systemClock);
  try {
    const parts = await startLocal(config, logger, {
      clock: systemClock,
      shutdown,
      cwd: io.cwd,
      logLevelOverride: levelOverride,
      ...(values.config === undefined
        ? {}
        : { configTree: await readConfigTree(resolve(io.cwd, values.config)) }),
    });
    logger.info(`${SERVICE_NAME} ready`);
    return { running: { config, logger, parts, shutdown } };
  } catch (error) {
    logger.error(`${SERVICE_NAME} failed to start`, {
      error: error instanceof Error ? error.message : String(error),
    });
    await logger.close();
    return { exitCode: 1 };
  }
}

/**
 * The file's tree as written, `${ENV}` references unresolved, for the config UI. Read again after
 * the file passed its checks, so it parses.
 */
async function readConfigTree(file: string): Promise<unknown> {
  return parse(await readFile(file, "utf8"), { merge: true, maxAliasCount: 100 });
}

function logSinks(config: Config, io: CliIo): LogSink[] {
  const sinks = [consoleSink(io.stdout, io.stderr)];
  if (config.fileLogging) sinks.push(dailyFileSink({ directory: resolve(io.cwd, config.logDirectory) }));
  return sinks;
}

/** The commands of the switch in runCli, in the order USAGE lists them. */
const COMMANDS = [
  "start",
  "check-config",
  "init-config",
  "migrate-config",
  "healthcheck",
  "simulate-platform",
  "send-test-events",
  "service",
  "qlik-cloud",
  "simulate-qlik-cloud",
] as const;

const isCommand = (word: string) => (COMMANDS as readonly string[]).includes(word);

/** An argument as a shell takes it back: quoted when it holds anything but plain path characters. */
const shellWord = (word: string) => (/^[\w./:@%+=,-]+$/.test(word) ? word : JSON.stringify(word));

/**
 * `npm start -- check-config FILE`: npm puts the script's `start` first, so a command given after
 * `npm start --` arrives as an argument of start. Say which command line runs it instead.
 */
function commandAfterStart(argv: readonly string[], io: CliIo): CliResult {
  const words = [...argv];
  words.splice(words.indexOf("start"), 1);
  const command = words.find(isCommand) ?? "";
  io.stderr.write(
    `steward: "${command}" is a command of its own, not an argument of start. Run it as:\n` +
      `  npx steward ${words.map(shellWord).join(" ")}\n` +
      '(npm start always runs "start": give it only the options of start, as in npm start -- --config steward.yaml)\n',
  );
  return { exitCode: 1 };
}

function usageError(io: CliIo, message: string): CliResult {
  io.stderr.write(`steward: ${message}\n\n${USAGE}`);
  return { exitCode: 1 };
}
