/**
 * `steward healthcheck [--config FILE]`: GETs the container health check of a
 * running Steward, `http://127.0.0.1:<containerHealthCheck.port>/health`, and answers exit code 0
 * when it says 200, else 1 with the reason: the command a container `HEALTHCHECK` runs. The port
 * comes from the same configuration file the instance runs with.
 */
import type { Config } from "../../core/config/index.ts";
import { HEALTH_HOST } from "../agent/container-health.ts";

const TIMEOUT_MS = 5000;

export interface HealthcheckOutcome {
  healthy: boolean;
  message: string;
}

export async function checkHealth(config: Config, timeoutMs = TIMEOUT_MS): Promise<HealthcheckOutcome> {
  if (!config.containerHealthCheck.enable) {
    return {
      healthy: false,
      message: "containerHealthCheck.enable is false in this configuration: there is no health check to ask",
    };
  }
  const url = `http://${HEALTH_HOST}:${config.containerHealthCheck.port}/health`;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    const body = await response.text();
    return { healthy: response.status === 200, message: `${url} answered ${response.status} ${body}` };
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return {
      healthy: false,
      message: `${url} did not answer (${error instanceof Error ? error.message : String(error)}${cause})`,
    };
  }
}
