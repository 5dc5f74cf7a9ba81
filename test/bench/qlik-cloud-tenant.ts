/**
 * Child process of the Qlik Cloud webhook benchmark: one simulated tenant (product code,
 * local/simulated-cloud/), in a process of its own so that answering Steward's calls (its token,
 * the lookups a run may make) never holds up the benchmark's process, which sends the deliveries
 * and times their answers. Sends `{ready: {fixture, url}}` over IPC once it listens. Answers
 * `{finish: n}` with `{bodies}`: n fresh runs of the tenant (failed and succeeded in turn, over its
 * three apps), each as the exact body Qlik would send, so the tenant's APIs know every run the
 * benchmark delivers; answers `"calls"` with `{calls, tokenCalls}`, the API and token calls it got.
 */
import { reloadEventBody } from "../../local/simulated-cloud/reload-event-bodies.ts";
import type { SimulatedTenant } from "../../local/simulated-cloud/simulated-tenant.ts";
import { startSimulatedCloud } from "../../local/simulated-cloud/start-simulated-cloud.ts";

const cloud = await startSimulatedCloud({ tenants: 1 });
const tenant = cloud.tenants[0] as SimulatedTenant;

function bodies(count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const reload = tenant.finishReload({ status: i % 2 === 0 ? "FAILED" : "SUCCEEDED", appIndex: i % 3 });
    return JSON.stringify(reloadEventBody(tenant.fixture, reload, "cloudevents"));
  });
}

process.on("message", (message: unknown) => {
  if (message === "calls")
    process.send?.({ calls: tenant.state.calls.length, tokenCalls: tenant.state.tokenCalls });
  else if (typeof message === "object" && message !== null && "finish" in message)
    process.send?.({ bodies: bodies(Number((message as { finish: unknown }).finish)) });
});

const stop = () => void cloud.stop().finally(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("disconnect", stop);
process.send?.({ ready: { fixture: tenant.fixture, url: tenant.url } });
