import { createObservabilityClient } from "../../core/adapters/http-clients/observability-client.ts";
import { describeObservabilityClientContract } from "./observability-client.contract.ts";

describeObservabilityClientContract("HTTP ingest APIs", { kind: "posts", create: createObservabilityClient });

describeObservabilityClientContract("no destination account configured", {
  kind: "disabled",
  create: (target) =>
    createObservabilityClient({
      ...target,
      event: { ...target.event, accounts: [] },
      metric: { ...target.metric, accounts: [] },
    }),
});
