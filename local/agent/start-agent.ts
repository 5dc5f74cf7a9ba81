/**
 * Starts the on-prem agent's enabled parts in the order given, each on the process's stop stack
 * (so they stop in reverse). The shared connections (agent-connections.ts) start before the first part
 * that writes through them, so they stop after it has flushed; with error tracking on they start
 * before every part, since the status page shows their error counts.
 */
import type { MqttBrokerClient } from "../../core/adapters/mqtt.ts";
import type { ShutdownSchedule } from "../shutdown-budget.ts";
import type { PartStarter } from "../start-in-order.ts";
import { type AgentConnections, startAgentConnections } from "./agent-connections.ts";
import type { AgentPart, AgentPartDeps } from "./agent-part.ts";

export interface AgentStartDeps extends AgentPartDeps {
  /** The process's broker connection (local/broker-connection.ts), already started, when something publishes. */
  broker: MqttBrokerClient | undefined;
  /** The shutdown's deadlines: the time-series clients the connections hand out are given up at its `pointWriters` time. */
  shutdown?: ShutdownSchedule | undefined;
}

export async function startAgentParts(
  parts: PartStarter,
  list: readonly AgentPart[],
  { broker, shutdown, ...deps }: AgentStartDeps,
): Promise<void> {
  const startConnections = () =>
    parts.start("agent-connections", () => startSharedConnections(deps, broker, shutdown));
  let connections = deps.config.errorTracking.enable ? await startConnections() : undefined;
  for (const part of list.filter((each) => each.enabled(deps.config))) {
    if (part.writes) {
      connections ??= await startConnections();
      const withConnections = { ...deps, connections };
      await parts.start(part.name, () => part.start(withConnections));
    } else {
      await parts.start(part.name, () => part.start(deps));
    }
  }
}

async function startSharedConnections(
  deps: AgentPartDeps,
  broker: MqttBrokerClient | undefined,
  shutdown: ShutdownSchedule | undefined,
): Promise<AgentConnections> {
  const { config, status } = deps;
  const connections = await startAgentConnections({
    config,
    logger: deps.logger,
    metrics: deps.metrics,
    cwd: deps.cwd,
    clock: deps.clock,
    status,
    broker,
    shutdown,
  });
  const errors = connections.errors;
  if (config.errorTracking.enable) status.setErrors(() => errors.counts());
  return connections;
}
