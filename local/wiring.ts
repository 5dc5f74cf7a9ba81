/**
 * Composition root of the local / on-prem runtime: picks one adapter per port from the config
 * and lists the services to start, in order. Everything here is chosen once, at start.
 */
import type { Config } from "../core/config/index.ts";
import type { Logger, Service } from "../core/ports.ts";
import { createApp as createRestApp } from "../functions/rest/app.ts";
import { startHttpListener } from "./http-listener.ts";
import { type NamedService, startInOrder } from "./services.ts";

export function localServices(config: Config, logger: Logger): NamedService[] {
  const services: NamedService[] = [];
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

export function startLocal(config: Config, logger: Logger): Promise<Service> {
  return startInOrder(localServices(config, logger), logger);
}
