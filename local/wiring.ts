/**
 * Composition root of the local / on-prem runtime: picks one adapter per port from the config
 * and lists the services to start, in order. Everything here is chosen once, at start.
 */
import type { Config } from "../core/config/index.ts";
import type { Clock, Logger, Service } from "../core/ports.ts";
import { systemClock } from "../core/system-clock.ts";
import { createApp as createRestApp } from "../functions/rest/app.ts";
import { auditServices } from "./audit-services.ts";
import { startHttpListener } from "./http-listener.ts";
import { type NamedService, startInOrder } from "./services.ts";

export interface LocalDeps {
  clock: Clock;
  /** Relative paths in the config (export directories, stores) resolve from here. */
  cwd: string;
}

export function localServices(config: Config, logger: Logger, deps: LocalDeps): NamedService[] {
  const services: NamedService[] = [...auditServices(config, logger, deps.clock, deps.cwd)];
  const rest = config.restServer;
  if (rest.enable) {
    services.push({
      name: "rest-api",
      start: () =>
        startHttpListener({
          name: "REST API",
          app: createRestApp({ config: rest, logger: logger.child("rest") }),
          host: rest.host,
          port: rest.port,
          logger,
        }),
    });
  }
  return services;
}

export function startLocal(
  config: Config,
  logger: Logger,
  deps: LocalDeps = { clock: systemClock, cwd: process.cwd() },
): Promise<Service> {
  return startInOrder(localServices(config, logger, deps), logger);
}
