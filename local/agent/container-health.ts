/**
 * The container health check: `GET /health` on
 * `127.0.0.1:containerHealthCheck.port` answers `200 {"statusCode":200,"status":"ok"}` while
 * every enabled listener is up (listener-probes.ts) and the event loop answers within 1 s
 * (event-loop-watch.ts); otherwise `503 {"statusCode":503,"status":"ko","reason":…}` naming the
 * first problems found. Any other path is 404. Bound to loopback only: it is for the container
 * runtime's `HEALTHCHECK` (`steward healthcheck`), not for the network. A port that cannot be
 * bound fails the start. Like every local listener it runs behind the guards of
 * local/http/guarded-server.ts (time limits, connection cap, Host check).
 */
import { type HttpRefusalReason, startEventLoopWatch } from "../../core/monitoring/index.ts";
import type { Clock, Logger, Stoppable } from "../../core/ports.ts";
import { serveOn } from "../http/http-listener.ts";
import { listening, startTracked } from "../status/tracked-part.ts";
import type { AgentPart } from "./agent-part.ts";
import { type ListenerProbe, listenerProbes } from "./listener-probes.ts";

export const HEALTH_HOST = "127.0.0.1";

export interface ContainerHealthDeps {
  port: number;
  probes: readonly ListenerProbe[];
  clock: Clock;
  logger: Logger;
  /** Longest acceptable event-loop delay (default 1000 ms). */
  maxDelayMs?: number | undefined;
  /** Counts what the listener refuses before answering (`steward_http_refused_total`). */
  countRefused?: ((reason: HttpRefusalReason) => void) | undefined;
}

export interface ContainerHealth extends Stoppable {
  readonly port: number;
  /** The reasons the process is unhealthy now; empty when healthy. */
  verdict(): Promise<string[]>;
}

export async function startContainerHealth(deps: ContainerHealthDeps): Promise<ContainerHealth> {
  const { clock, logger } = deps;
  const loop = startEventLoopWatch({ clock, maxDelayMs: deps.maxDelayMs });

  async function verdict(): Promise<string[]> {
    const problems = await Promise.all(deps.probes.map((probe) => probe.check()));
    const loopProblem = loop.problem();
    return [...(loopProblem === undefined ? [] : [loopProblem]), ...problems.filter((p) => p !== undefined)];
  }

  const listener = await serveOn(
    {
      name: "Container health check",
      host: HEALTH_HOST,
      port: deps.port,
      countRefused: deps.countRefused,
      logger,
    },
    () => (req, res) => {
      const answer = (status: number, body: unknown) => {
        res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
        res.end(JSON.stringify(body));
      };
      if (req.method !== "GET" || (req.url ?? "").split("?")[0] !== "/health") {
        answer(404, { statusCode: 404, error: "Not Found" });
        return;
      }
      verdict().then(
        (problems) => {
          if (problems.length === 0) answer(200, { statusCode: 200, status: "ok" });
          else {
            logger.warn("container health check: unhealthy", { reason: problems.join("; ") });
            answer(503, { statusCode: 503, status: "ko", reason: problems.join("; ") });
          }
        },
        (error: unknown) => answer(503, { statusCode: 503, status: "ko", reason: String(error) }),
      );
    },
  ).catch(async (cause: unknown) => {
    await loop.stop();
    throw cause;
  });
  let stopped: Promise<void> | undefined;
  return {
    port: listener.port,
    verdict,
    stop() {
      stopped ??= (async () => {
        await loop.stop();
        listener.closeConnections();
        await listener.stop();
      })();
      return stopped;
    },
  };
}

/**
 * The container health check as an agent part (`containerHealthCheck.enable`): it probes every
 * listener the config enables and what earlier parts reported (the audit queue, the stores).
 */
export const containerHealthPart: AgentPart = {
  name: "container-health-check",
  enabled: (config) => config.containerHealthCheck.enable,
  start: ({ config, healthProbes, clock, logger, status, httpRefused }) =>
    startTracked(
      "container-health-check",
      () =>
        startContainerHealth({
          port: config.containerHealthCheck.port,
          probes: [...listenerProbes(config), ...healthProbes],
          clock,
          logger: logger.child("health"),
          countRefused: httpRefused.counter("health"),
        }),
      listening(status, "Container health check"),
    ),
};
