/**
 * A listener that takes work (the ingest API, the REST API) as the shutdown stops it: at the
 * signal, not at its turn in the reverse stop order (shutdown-budget.ts). The parts that stop
 * before it, the agent's, may take seconds, and an ingest API still listening meanwhile would
 * answer 202 for events taken while the process is going away.
 *
 * At the signal the listener closes: new connections are refused, which a load balancer reads as
 * the instance being gone and a client as a failure it may retry elsewhere or later (nothing of
 * the request was taken), where a 503 would need the port kept open for answers no one should
 * wait for. Idle kept-alive connections close; requests in flight finish and their answers close
 * their connections. The part's own turn in the stop order then waits for those requests, so
 * what stops after it (the audit queue) still stops after them; at the budget's
 * `requestsInFlight` deadline the ones still running are given up.
 */

import { SHUTDOWN_BUDGET_MS, type ShutdownSchedule } from "../shutdown-budget.ts";
import type { NamedPart } from "../start-in-order.ts";
import type { HttpListener } from "./http-listener.ts";

export function stopsAcceptingAtSignal(
  listener: NamedPart<HttpListener>,
  shutdown: ShutdownSchedule | undefined,
): NamedPart<HttpListener> {
  return {
    name: listener.name,
    async start() {
      const started = await listener.start();
      // stop() is shared: the part's turn in the stop order awaits this same stop.
      shutdown?.at(SHUTDOWN_BUDGET_MS.listeners, () => void started.stop());
      shutdown?.at(SHUTDOWN_BUDGET_MS.requestsInFlight, () => started.closeConnections());
      return started;
    },
  };
}
