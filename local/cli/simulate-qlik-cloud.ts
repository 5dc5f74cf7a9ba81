/**
 * `steward simulate-qlik-cloud`: simulated Qlik Cloud tenants on loopback (local/simulated-cloud/),
 * two by default, each on a port of its own, serving the token endpoint and the APIs Steward uses,
 * each with a webhook registered to Steward's ingest listener (`--steward URL`); every `--every`
 * seconds each tenant ends a reload and delivers its signed event (simulated-cloud/event-rounds.ts).
 * The command writes the configuration that takes them in, on standard output or to
 * `--write-config FILE` (simulator-config-output.ts), logs each delivery on standard error, and
 * runs until main.ts stops it on SIGINT/SIGTERM. Real tenants are HTTPS only; these are plain
 * HTTP on loopback, which Steward accepts for trying and testing.
 */

import { resolve } from "node:path";
import type { ParseArgsConfig } from "node:util";
import { defaultConfig } from "../../core/config/index.ts";
import { consoleSink } from "../../core/logging/console-sink.ts";
import type { LogLevel } from "../../core/logging/log-levels.ts";
import { createLogger } from "../../core/logging/logger.ts";
import type { Stoppable } from "../../core/ports.ts";
import { QLIK_CLOUD_WEBHOOK_PREFIX } from "../../functions/qlik-cloud/webhook-handler.ts";
import { type SentEvent, startEventRounds } from "../simulated-cloud/event-rounds.ts";
import { startSimulatedCloud } from "../simulated-cloud/start-simulated-cloud.ts";
import { addWebhook } from "../simulated-cloud/tenant-state.ts";
import type { CliIo, CliResult } from "./cli.ts";
import { CLOUD_SNIPPET_FIRST_LINE, simulatedCloudSnippet } from "./simulated-cloud-snippet.ts";
import {
  reason,
  replaceRefusal,
  type WriteConfigTarget,
  writeConfiguration,
} from "./simulator-config-output.ts";
import { wholeNumberOption } from "./whole-number-option.ts";

export const MAX_SIMULATED_TENANTS = 20;
export const DEFAULT_STEWARD_URL = "http://127.0.0.1:8181";
export const DEFAULT_EVERY_SECONDS = 10;

/** The command's own options (`--port`, `--host` and `--write-config` it shares with simulate-platform). */
export const SIMULATE_QLIK_CLOUD_OPTIONS = {
  tenants: { type: "string" },
  steward: { type: "string" },
  every: { type: "string" },
} as const satisfies NonNullable<ParseArgsConfig["options"]>;

export interface SimulateQlikCloudArgs {
  readonly port?: string | undefined;
  readonly host?: string | undefined;
  readonly tenants?: string | undefined;
  readonly steward?: string | undefined;
  readonly every?: string | undefined;
  readonly "write-config"?: string | undefined;
}

export interface SimulateQlikCloudOptions {
  /** First port: tenant i listens on `port + i`; 0: free ports. */
  readonly port: number;
  readonly host: string;
  readonly tenants: number;
  /** Steward's ingest API listener (scheme, host and port). */
  readonly steward: URL;
  /** 0: no reload events are sent (the tenants only answer). */
  readonly everyMs: number;
  readonly writeConfig?: WriteConfigTarget;
}

export class SimulateQlikCloudUsageError extends Error {
  override readonly name = "SimulateQlikCloudUsageError";
}

/** A whole-number option of this command (whole-number-option.ts), refused as its usage error. */
const wholeNumber = (name: string, text: string | undefined, fallback: number, min: number, max: number) =>
  wholeNumberOption(
    { name, text },
    { fallback, min, max },
    (message) => new SimulateQlikCloudUsageError(message),
  );

export function parseSimulateQlikCloudOptions(
  args: SimulateQlikCloudArgs,
  cwd: string,
): SimulateQlikCloudOptions {
  const tenants = wholeNumber("--tenants", args.tenants, 2, 1, MAX_SIMULATED_TENANTS);
  const port = wholeNumber("--port", args.port, 0, 0, 65_535 - tenants + 1);
  const every = wholeNumber("--every", args.every, DEFAULT_EVERY_SECONDS, 0, 3600);
  const host = (args.host ?? "127.0.0.1").replace(/^\[(.*)\]$/, "$1");
  if (host.trim() === "" || host !== host.trim())
    throw new SimulateQlikCloudUsageError(`--host must be a host name or IP address (got "${host}")`);
  const stewardText = args.steward ?? DEFAULT_STEWARD_URL;
  const steward = URL.canParse(stewardText) ? new URL(stewardText) : undefined;
  if (steward === undefined || (steward.protocol !== "http:" && steward.protocol !== "https:"))
    throw new SimulateQlikCloudUsageError(
      `--steward must be the http(s) URL of Steward's ingest API, e.g. ${DEFAULT_STEWARD_URL} (got "${stewardText}")`,
    );
  const writeConfig = args["write-config"];
  if (writeConfig !== undefined && writeConfig.trim() === "")
    throw new SimulateQlikCloudUsageError("--write-config must name a file");
  return {
    port,
    host,
    tenants,
    steward,
    everyMs: every * 1000,
    ...(writeConfig === undefined
      ? {}
      : { writeConfig: { path: resolve(cwd, writeConfig), given: writeConfig } }),
  };
}

/** Where Steward's ingest listener is, as its configuration names it. */
function ingestOf(steward: URL): { host: string; port: number } {
  const port = steward.port === "" ? (steward.protocol === "https:" ? 443 : 80) : Number(steward.port);
  return { host: steward.hostname.replace(/^\[(.*)\]$/, "$1"), port };
}

function shownSend(sent: SentEvent): Record<string, string | number> {
  return {
    tenant: sent.tenant,
    status: sent.status,
    envelope: sent.form,
    times: sent.times,
    reloadId: sent.reloadId,
    answers: sent.deliveries
      .map((delivery) => delivery.responseStatus ?? delivery.statusMessage ?? "?")
      .join(","),
  };
}

/** Runs the simulated tenants until main.ts stops them; exit 1 with one clear line when they cannot start. */
export async function simulateQlikCloud(
  options: SimulateQlikCloudOptions,
  io: CliIo,
  logLevel: LogLevel = "info",
): Promise<CliResult> {
  const fail = (message: string): CliResult => {
    io.stderr.write(`steward: ${message}\n`);
    return { exitCode: 1 };
  };
  const output = { command: "simulate-qlik-cloud", firstLine: CLOUD_SNIPPET_FIRST_LINE };
  const refusal = options.writeConfig && (await replaceRefusal(options.writeConfig.path, output));
  if (refusal) return fail(refusal);
  const logger = createLogger({ level: logLevel, sinks: [consoleSink(io.stderr, io.stderr)] });
  let cloud: Awaited<ReturnType<typeof startSimulatedCloud>>;
  try {
    cloud = await startSimulatedCloud({ tenants: options.tenants, host: options.host, port: options.port });
  } catch (error) {
    return fail(`cannot start the simulated tenants: ${reason(error)}`);
  }
  const started: Stoppable[] = [cloud];
  const base = options.steward.href.replace(/\/+$/, "");
  for (const tenant of cloud.tenants)
    addWebhook(tenant.state, `${base}${QLIK_CLOUD_WEBHOOK_PREFIX}${tenant.fixture.name}`);
  io.stderr.write(
    [
      `Simulated Qlik Cloud: ${cloud.tenants.length} tenants, each serving /oauth/token and the reloads, audits, apps, items, spaces, users, licences and webhooks APIs`,
      ...cloud.tenants.map(
        (tenant) => `  ${tenant.fixture.name}  ${tenant.url}  (tenant id ${tenant.fixture.tenantId})`,
      ),
      options.everyMs === 0
        ? "No reload events are sent (--every 0)."
        : `Every ${options.everyMs / 1000} s each tenant ends a reload (failed, succeeded, canceled in turn) and delivers its signed event to ${base}${QLIK_CLOUD_WEBHOOK_PREFIX}<tenant>.`,
      "",
    ].join("\n"),
  );
  if (options.everyMs > 0)
    started.push(
      startEventRounds({
        tenants: cloud.tenants,
        everyMs: options.everyMs,
        onSent: (sent) => logger.info("reload event sent", shownSend(sent)),
      }),
    );
  const parts = {
    async stop() {
      for (const part of started.splice(0).reverse()) await part.stop();
    },
  };
  const written = await writeConfiguration(
    simulatedCloudSnippet({ tenants: cloud.tenants, ingest: ingestOf(options.steward) }),
    options.writeConfig,
    io,
  );
  if (written !== undefined) {
    await parts.stop();
    return fail(written);
  }
  io.stderr.write("Stop the simulated tenants with Ctrl-C.\n");
  return { running: { config: defaultConfig(), logger, parts } };
}
