/**
 * What every Lambda handler needs once per cold start: the parsed config and a logger.
 * The config is the YAML text of the linked `StewardConfig` secret (`Service: {}` until it is set,
 * so every setting takes its default, and the ingest and REST functions, having no token, answer
 * 503: functions/cloud-token.ts). A bad config fails the cold start loudly, listing every
 * problem; `${ENV}` references resolve from the function's environment.
 */
import { type Config, checkConfigText, formatProblem } from "../core/config/index.ts";
import { consoleSink, createLogger } from "../core/logging/index.ts";
import type { Logger } from "../core/ports.ts";

export interface LambdaRuntime {
  config: Config;
  logger: Logger;
}

export function lambdaRuntime(
  configText: string | undefined,
  env: Record<string, string | undefined> = process.env,
): LambdaRuntime {
  const config = lambdaConfig(configText, env);
  return { config, logger: createLogger({ level: config.logLevel, sinks: [consoleSink()] }) };
}

function lambdaConfig(text: string | undefined, env: Record<string, string | undefined>): Config {
  const result = checkConfigText(text?.trim() ? text : "Service: {}", "StewardConfig.yaml", env);
  if (result.ok) return result.config;
  throw new Error(`Invalid StewardConfig:\n${result.problems.map(formatProblem).join("\n")}`);
}
