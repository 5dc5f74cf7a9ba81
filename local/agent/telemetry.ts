/**
 * Anonymous telemetry: off unless `anonTelemetry: true`; then the
 * document of core/monitoring/telemetry-payload.ts is POSTed as JSON to `anonTelemetryEndpoint`
 * at start and every 12 h, each call giving up after 10 s. It never holds up or fails start-up
 * (the first POST is not waited for) and tolerates being offline: a failure is logged at DEBUG
 * and the next period tries again. No GeoIP, no third-party SDK. Failures are not error-tracked.
 * Log lines name the endpoint with any credentials in it masked (core/config/mask-url.ts).
 */
import { resolve } from "node:path";
import { loadOrCreateInstanceId } from "../../core/adapters/local/instance-id-file.ts";
import { type Config, maskUrl } from "../../core/config/index.ts";
import { telemetryPayload } from "../../core/monitoring/telemetry-payload.ts";
import { startPeriodicPoll } from "../../core/polling/periodic-poll.ts";
import type { Clock, Logger, Stoppable } from "../../core/ports.ts";
import { describeError } from "../../core/shared/describe-error.ts";
import { SERVICE_NAME, SERVICE_VERSION } from "../../core/version.ts";
import type { AgentPart } from "./agent-part.ts";
import { readSystemInfo } from "./system-info.ts";

/** Where the instance id is kept, relative to the working directory. */
export const INSTANCE_ID_FILE = "data/instance-id";
export const TELEMETRY_INTERVAL_MS = 12 * 60 * 60 * 1000;
const TIMEOUT_MS = 10_000;

export interface TelemetryDeps {
  config: Config;
  cwd: string;
  clock: Clock;
  logger: Logger;
  fetch?: typeof fetch | undefined;
  intervalMs?: number | undefined;
}

export interface Telemetry extends Stoppable {
  readonly instanceId: string;
  sent(): number;
}

export async function startTelemetry(deps: TelemetryDeps): Promise<Telemetry> {
  const { config, clock } = deps;
  const logger = deps.logger.child("telemetry");
  const send = deps.fetch ?? fetch;
  const instanceId = await loadOrCreateInstanceId(resolve(deps.cwd, INSTANCE_ID_FILE));
  const endpoint = config.anonTelemetryEndpoint;
  const shown = maskUrl(endpoint);
  let sent = 0;

  async function post(): Promise<void> {
    const body = telemetryPayload(config, readSystemInfo(), {
      service: SERVICE_NAME,
      version: SERVICE_VERSION,
      instanceId,
    });
    try {
      const response = await send(endpoint, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      await response.body?.cancel();
      if (!response.ok) throw new Error(`the telemetry endpoint answered ${response.status}`);
      sent += 1;
      logger.debug("anonymous telemetry sent", { endpoint: shown });
    } catch (error) {
      logger.debug("anonymous telemetry not sent; the next period tries again", {
        endpoint: shown,
        error: describeError(error).replaceAll(endpoint, shown),
      });
    }
  }

  logger.info("anonymous telemetry is on", { endpoint: shown, instanceId });
  const poll = await startPeriodicPoll({
    what: "telemetry post",
    intervalMs: deps.intervalMs ?? TELEMETRY_INTERVAL_MS,
    run: post,
    clock,
    logger,
    startWaitMs: 0,
  });
  return { instanceId, sent: () => sent, stop: () => poll.stop() };
}

/** Anonymous telemetry as an agent part (`anonTelemetry`). */
export const telemetryPart: AgentPart = {
  name: "telemetry",
  enabled: (config) => config.anonTelemetry,
  start: ({ config, cwd, clock, logger }) => startTelemetry({ config, cwd, clock, logger }),
};
