/**
 * The observability destination of a UDP pipeline: a client for the accounts the pipeline names
 * (which destinations a pipeline writes to is core/config/udp-pipelines.ts's to say). The
 * time-series client and broker connection are the agent's shared ones (agent-connections.ts).
 */
import { observabilityClientFor } from "../../core/adapters/observability-client-for.ts";
import type { Config, PipelineDestinations } from "../../core/config/index.ts";
import { selectAccounts } from "../../core/observability/observability.ts";
import type { Clock, Logger } from "../../core/ports.ts";

export function observabilityFor(
  config: Config,
  writesTo: PipelineDestinations,
  clock: Clock,
  logger: Logger,
) {
  const picked = selectAccounts(config.thirdPartyToolsCredentials.obsPlatform, writesTo.accounts);
  if (picked.unknown.length > 0) {
    logger.warn("Unknown observability destination accounts are skipped", {
      accounts: picked.unknown.join(","),
    });
  }
  return {
    client: observabilityClientFor(
      { kind: "events", obsPlatform: config.obsPlatform, accounts: picked.accounts },
      { clock },
    ),
    accounts: picked.accounts,
  };
}
