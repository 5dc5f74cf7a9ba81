import { createObservabilityPoster } from "../../core/adapters/http-posters/observability-poster.ts";
import { describeObservabilityPosterContract } from "./observability-poster.contract.ts";

describeObservabilityPosterContract("HTTP ingest APIs", { kind: "posts", create: createObservabilityPoster });

describeObservabilityPosterContract("no destination account configured", {
  kind: "disabled",
  create: (target) =>
    createObservabilityPoster({
      ...target,
      event: { ...target.event, accounts: [] },
      metric: { ...target.metric, accounts: [] },
    }),
});
