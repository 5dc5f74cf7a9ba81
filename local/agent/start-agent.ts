/**
 * Starts the on-prem agent's enabled parts in the order given, each on the process's stop stack
 * (so they stop in reverse). The shared outputs (agent-outputs.ts) start before the first part
 * that writes through them, so they stop after it has flushed; with error tracking on they start
 * before every part, since the status page shows their error counts.
 */
import type { MqttPublisher } from "../../core/adapters/mqtt.ts";
import type { ShutdownSchedule } from "../shutdown-budget.ts";
import type { PartStarter } from "../start-in-order.ts";
import { type AgentOutputs, startAgentOutputs } from "./agent-outputs.ts";
import type { AgentPart, AgentPartDeps } from "./agent-part.ts";

export interface AgentStartDeps extends AgentPartDeps {
  /** The process's broker connection (local/broker-connection.ts), already started, when something publishes. */
  broker: MqttPublisher | undefined;
  /** The shutdown's deadlines: the time-series writers the outputs hand out are given up at its `pointWriters` time. */
  shutdown?: ShutdownSchedule | undefined;
}

export async function startAgentParts(
  parts: PartStarter,
  list: readonly AgentPart[],
  { broker, shutdown, ...deps }: AgentStartDeps,
): Promise<void> {
  const startOutputs = () => parts.start("agent-outputs", () => startSharedOutputs(deps, broker, shutdown));
  let outputs = deps.config.errorTracking.enable ? await startOutputs() : undefined;
  for (const part of list.filter((each) => each.enabled(deps.config))) {
    if (part.writes) {
      outputs ??= await startOutputs();
      const withOutputs = { ...deps, outputs };
      await parts.start(part.name, () => part.start(withOutputs));
    } else {
      await parts.start(part.name, () => part.start(deps));
    }
  }
}

async function startSharedOutputs(
  deps: AgentPartDeps,
  broker: MqttPublisher | undefined,
  shutdown: ShutdownSchedule | undefined,
): Promise<AgentOutputs> {
  const { config, status } = deps;
  const outputs = await startAgentOutputs(
    config,
    deps.logger,
    deps.metrics,
    deps.cwd,
    deps.clock,
    status,
    broker,
    shutdown,
  );
  const errors = outputs.errors;
  if (config.errorTracking.enable) status.setErrors(() => errors.counts());
  return outputs;
}
