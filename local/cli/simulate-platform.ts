/**
 * `steward simulate-platform`: runs the simulated platform (local/simulated-platform/) for trying
 * Steward, and for tests, without a real platform. N HTTPS servers over mutual TLS on consecutive
 * ports serve engine health, proxy sessions and the repository's apps with changing values; the
 * command writes a Steward configuration that polls them, then runs until main.ts stops it on
 * SIGINT/SIGTERM. The certificates come from `--certs DIR` (simulated-platform-certs.ts), written
 * there first with `--generate-certs`.
 *
 * Standard output carries the configuration and nothing else (addresses, hints and log lines go
 * to standard error), so `… > steward-sim.yaml` gives a file Steward reads; `--write-config FILE`
 * writes it there instead, which also suits shells whose `>` changes the encoding. A file is only
 * replaced when simulate-platform wrote it, so a real configuration is never overwritten. With
 * `--task-events` the simulator also serves a webhook catcher (webhook-catcher.ts) that the
 * configuration alerts to, and logs every call it gets: a first try ends in an alert one can see.
 *
 * The first port defaults to the engine's, 4747: one simulated server answers health, sessions
 * and apps on one port, and the printed configuration says so (`host`, `userSessions.host` and
 * `platform.repositoryPort` all name it), so the usual three ports are not needed.
 */

import { resolve } from "node:path";
import type { ParseArgsConfig } from "node:util";
import { defaultConfig } from "../../core/config/index.ts";
import { consoleSink } from "../../core/logging/console-sink.ts";
import type { LogLevel } from "../../core/logging/log-levels.ts";
import { createLogger } from "../../core/logging/logger.ts";
import type { Logger, Stoppable } from "../../core/ports.ts";
import type { SimulatedServer } from "../simulated-platform/simulated-server.ts";
import { startSimulatedPlatform } from "../simulated-platform/start-simulated-platform.ts";
import { startTaskEventSender } from "../simulated-platform/task-event-sender.ts";
import { type CaughtCall, startWebhookCatcher } from "../simulated-platform/webhook-catcher.ts";
import type { CliIo, CliResult } from "./cli.ts";
import {
  CertificateFilesError,
  prepareCertificates,
  type SimulatedPlatformCertificates,
} from "./simulated-platform-certs.ts";
import { SNIPPET_FIRST_LINE, stewardConfigSnippet } from "./simulated-platform-snippet.ts";
import {
  reason,
  replaceRefusal,
  type SimulatorOutput,
  writeConfiguration,
} from "./simulator-config-output.ts";
import { wholeNumberOption } from "./whole-number-option.ts";

const OUTPUT: SimulatorOutput = { command: "simulate-platform", firstLine: SNIPPET_FIRST_LINE };

/** The engine's usual port: one simulated server answers health, sessions and apps on one port. */
export const DEFAULT_SIMULATED_PORT = 4747;
export const MAX_SIMULATED_SERVERS = 1000;
/** Relative to the working directory. */
export const DEFAULT_CERTS_DIR = "simulated-platform-certs";
export const DEFAULT_SIMULATED_HOST = "127.0.0.1";
/** The simulated server licence's Valid To day, from today, unless `--license-expires-in-days` says otherwise. */
export const DEFAULT_LICENSE_EXPIRES_IN_DAYS = 365;

/** The command's own options, merged into the command line's parser by cli.ts. */
export const SIMULATE_PLATFORM_OPTIONS = {
  port: { type: "string" },
  servers: { type: "string" },
  host: { type: "string" },
  certs: { type: "string" },
  "generate-certs": { type: "boolean" },
  force: { type: "boolean" },
  "task-events": { type: "string" },
  "license-expires-in-days": { type: "string" },
  "write-config": { type: "string" },
} as const satisfies NonNullable<ParseArgsConfig["options"]>;

export type SimulatePlatformArgs = {
  [K in keyof typeof SIMULATE_PLATFORM_OPTIONS]?: (typeof SIMULATE_PLATFORM_OPTIONS)[K]["type"] extends "boolean"
    ? boolean
    : string;
};

export interface SimulatePlatformOptions {
  /** First port; server i listens on `port + i`. 0 = an ephemeral port for each server. */
  readonly port: number;
  readonly servers: number;
  readonly host: string;
  /** Absolute. */
  readonly certsDir: string;
  readonly generateCerts: boolean;
  readonly force: boolean;
  /** Where reload-task datagrams go (`--task-events HOST:PORT`); none are sent without it. */
  readonly taskEvents?: { readonly host: string; readonly port: number };
  /** Days from today (UTC) to the simulated server licence's Valid To day; negative: already expired. */
  readonly licenseExpiresInDays: number;
  /** `--write-config FILE`: the configuration goes there instead of to standard output. */
  readonly writeConfig?: { readonly path: string; readonly given: string };
}

/** A bad option: cli.ts prints the message with the usage. */
export class SimulatePlatformUsageError extends Error {
  override readonly name = "SimulatePlatformUsageError";
}

/** A whole-number option of this command (whole-number-option.ts), refused as its usage error. */
const wholeNumber = (name: string, text: string | undefined, fallback: number, min: number, max: number) =>
  wholeNumberOption(
    { name, text },
    { fallback, min, max },
    (message) => new SimulatePlatformUsageError(message),
  );

export function parseSimulatePlatformOptions(
  args: SimulatePlatformArgs,
  cwd: string,
): SimulatePlatformOptions {
  const port = wholeNumber("--port", args.port, DEFAULT_SIMULATED_PORT, 0, 65_535);
  const servers = wholeNumber("--servers", args.servers, 1, 1, MAX_SIMULATED_SERVERS);
  if (port !== 0 && port + servers - 1 > 65_535) {
    throw new SimulatePlatformUsageError(
      `--port ${port} with --servers ${servers} would need ports up to ${port + servers - 1}, past 65535`,
    );
  }
  // An IPv6 address may come bracketed, as in a URL; the listener takes it bare.
  const host = (args.host ?? DEFAULT_SIMULATED_HOST).replace(/^\[(.*)\]$/, "$1");
  if (host.trim() === "" || host !== host.trim()) {
    throw new SimulatePlatformUsageError(`--host must be a host name or IP address (got "${host}")`);
  }
  if (args.certs !== undefined && args.certs.trim() === "") {
    throw new SimulatePlatformUsageError("--certs must name a folder");
  }
  const writeConfig = args["write-config"];
  if (writeConfig !== undefined && writeConfig.trim() === "") {
    throw new SimulatePlatformUsageError("--write-config must name a file");
  }
  const generateCerts = args["generate-certs"] === true;
  const force = args.force === true;
  if (force && !generateCerts) {
    throw new SimulatePlatformUsageError("--force only applies with --generate-certs");
  }
  return {
    port,
    servers,
    host,
    certsDir: resolve(cwd, args.certs ?? DEFAULT_CERTS_DIR),
    generateCerts,
    force,
    ...(args["task-events"] === undefined ? {} : { taskEvents: taskEventsTarget(args["task-events"]) }),
    licenseExpiresInDays: licenceDays(args["license-expires-in-days"]),
    ...(writeConfig === undefined
      ? {}
      : { writeConfig: { path: resolve(cwd, writeConfig), given: writeConfig } }),
  };
}

/** `HOST:PORT` (an IPv6 address bracketed: `[::1]:9998`). */
function taskEventsTarget(text: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:\s]+)):(\d+)$/.exec(text.trim());
  const host = match?.[1] ?? match?.[2];
  const port = Number(match?.[3]);
  if (host === undefined || !Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new SimulatePlatformUsageError(
      `--task-events must be HOST:PORT, e.g. 127.0.0.1:9998 (got "${text}")`,
    );
  }
  return { host, port };
}

/** `--license-expires-in-days`: a whole number of days, negative for a licence that has expired. */
function licenceDays(text: string | undefined): number {
  if (text === undefined) return DEFAULT_LICENSE_EXPIRES_IN_DAYS;
  const value = Number(text);
  if (!/^-?\d+$/.test(text) || Math.abs(value) > 36_500) {
    throw new SimulatePlatformUsageError(
      `--license-expires-in-days must be a whole number of days from -36500 to 36500 (got "${text}")`,
    );
  }
  return value;
}

/** The address Steward connects to: the listening host, or loopback when it listens everywhere. */
export function connectHostFor(host: string): string {
  return host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
}

/** Runs the simulated platform until main.ts stops it; exit 1 with one clear line when it cannot. */
export async function simulatePlatform(
  options: SimulatePlatformOptions,
  io: CliIo,
  logLevel: LogLevel = "info",
): Promise<CliResult> {
  const fail = (message: string): CliResult => {
    io.stderr.write(`steward: ${message}\n`);
    return { exitCode: 1 };
  };
  const refusal = options.writeConfig && (await replaceRefusal(options.writeConfig.path, OUTPUT));
  if (refusal) return fail(refusal);
  const connectHost = connectHostFor(options.host);
  let certificates: SimulatedPlatformCertificates;
  try {
    certificates = await prepareCertificates({ ...options, connectHost });
  } catch (error) {
    if (error instanceof CertificateFilesError) return fail(error.message);
    throw error;
  }
  const { files, tls } = certificates;
  for (const note of certificates.notes) io.stderr.write(`steward: ${note}\n`);
  for (const warning of certificates.warnings) io.stderr.write(`steward: warning: ${warning}\n`);

  // Standard output is the configuration's alone: every log line goes to standard error.
  const logger = createLogger({ level: logLevel, sinks: [consoleSink(io.stderr, io.stderr)] });
  const started: Stoppable[] = [];
  const parts = {
    async stop() {
      for (const part of started.reverse()) await part.stop();
      started.length = 0;
    },
  };
  let snippet: string;
  try {
    snippet = await startParts(options, { connectHost, files, tls, logger, io }, started);
  } catch (error) {
    await parts.stop();
    return fail(startFailure(error, options));
  }
  const written = await writeConfiguration(snippet, options.writeConfig, io);
  if (written !== undefined) {
    await parts.stop();
    return fail(written);
  }
  io.stderr.write("Stop the simulated platform with Ctrl-C.\n");
  // The crash handler of main.ts writes its dumps with the embedded default's crashFile settings.
  return { running: { config: defaultConfig(), logger, parts } };
}

interface StartContext {
  readonly connectHost: string;
  readonly files: SimulatedPlatformCertificates["files"];
  readonly tls: SimulatedPlatformCertificates["tls"];
  readonly logger: Logger;
  readonly io: CliIo;
}

/**
 * The servers, and with `--task-events` the webhook catcher and the datagram sender, each pushed on
 * `started` once it runs; answers the configuration that points Steward at them.
 */
async function startParts(
  options: SimulatePlatformOptions,
  context: StartContext,
  started: Stoppable[],
): Promise<string> {
  const { connectHost, files, tls, logger, io } = context;
  const platform = await startSimulatedPlatform({
    tls,
    servers: options.servers,
    port: options.port,
    host: options.host,
    licenseExpiresInDays: options.licenseExpiresInDays,
  });
  started.push(platform);
  io.stderr.write(banner(platform.servers, files));
  const target = options.taskEvents;
  const first = platform.servers[0];
  let taskEvents: { host: string; port: number; catcherUrl: string } | undefined;
  if (target !== undefined && first !== undefined) {
    const catcher = await startWebhookCatcher({
      host: options.host,
      onCall: (call) => logger.info("webhook call caught", shownFields(call)),
    });
    started.push(catcher);
    started.push(startTaskEvents(target, first.repository.taskEvents, logger));
    io.stderr.write(
      `Reload-task datagrams go to ${target.host}:${target.port} every few seconds; Steward alerts the failed and aborted ` +
        `runs to the webhook catcher at ${catcher.url}/, whose calls are logged here.\n`,
    );
    taskEvents = { ...target, catcherUrl: catcher.url };
  }
  return stewardConfigSnippet({
    host: connectHost,
    ports: platform.servers.map((server) => server.port),
    files,
    ...(taskEvents === undefined ? {} : { taskEvents }),
  });
}

/** The datagram sender of `--task-events`; a failing send is said once. */
function startTaskEvents(
  target: NonNullable<SimulatePlatformOptions["taskEvents"]>,
  state: SimulatedServer["repository"]["taskEvents"],
  logger: Logger,
): Stoppable {
  let warned = false;
  return startTaskEventSender({
    ...target,
    state,
    onError(error) {
      if (warned) return;
      warned = true;
      logger.warn(`task-event datagrams cannot be sent to ${target.host}:${target.port}: ${error.message}`);
    },
  });
}

/** What a caught call shows: a reload alert's event, task, app and run; else every field. */
function shownFields(call: CaughtCall): Record<string, string | number> {
  const summary = ["event", "taskName", "appName", "executionId"].filter((key) => key in call.fields);
  const shown = summary.length > 0 ? summary : Object.keys(call.fields);
  return {
    method: call.method,
    path: call.path,
    ...Object.fromEntries(shown.map((key) => [key, call.fields[key] ?? ""])),
    fields: Object.keys(call.fields).length,
    ...(call.preview === undefined ? {} : { body: call.preview }),
  };
}

function startFailure(error: unknown, options: SimulatePlatformOptions): string {
  const listen = error as NodeJS.ErrnoException & { address?: string; port?: number };
  if (listen?.syscall === "listen" && typeof listen.code === "string") {
    const where = `${listen.address ?? options.host}:${listen.port ?? options.port}`;
    const hint =
      listen.code === "EADDRINUSE"
        ? options.servers > 1
          ? `; a port from ${options.port} to ${options.port + options.servers - 1} is in use, choose another first port with --port`
          : "; the port is in use, choose another with --port"
        : "";
    return `cannot listen on ${where} (${listen.code})${hint}`;
  }
  return `cannot start the simulated platform: ${reason(error)}`;
}

function banner(servers: readonly SimulatedServer[], files: SimulatedPlatformCertificates["files"]): string {
  const shown = servers.slice(0, 10).map((server) => `  https://${server.address}`);
  if (servers.length > shown.length) {
    shown.push(`  ... and ${servers.length - shown.length} more (all listed in the configuration below)`);
  }
  const count = servers.length === 1 ? "1 server" : `${servers.length} servers`;
  return [
    `Simulated platform: ${count} listening, each serving /engine/healthcheck, /qps/<virtual proxy>/session, /qrs/app, the licence routes of /qrs/license and /v1/systeminfo`,
    ...shown,
    `Clients must present a certificate signed by ${files.ca} (e.g. ${files.clientCert} with ${files.clientKey}).`,
    "",
  ].join("\n");
}
