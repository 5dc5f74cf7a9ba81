/**
 * The on-prem agent as a process of `npx sst dev`: SST runs the Lambda functions live and this
 * command beside them in its multiplexer, with the dev stage's queue, tables and bucket linked.
 * SST passes each link as an `SST_RESOURCE_<Name>` environment variable, and the stage's AWS
 * credentials and region; the agent reads the links (local/cli/sst-links.ts) in place of the
 * `cloud.*` names of its configuration. The agent runs on the embedded default configuration, or
 * on the file `STEWARD_DEV_CONFIG` names when `sst dev` starts. It runs on the developer's Node
 * (24 or 22; on another, Steward warns once at start), where on Node 20 the AWS SDK would also
 * warn on every start that Node 20 is past its end of life; the environment turns that warning
 * off. DevCommand does nothing on `sst deploy`.
 */
import { auditEventQueue } from "./queue.ts";
import { auditEventsBucket } from "./storage.ts";
import { rateLimitTable } from "./tables.ts";
import { keyValueTable, scheduleTable } from "./tables-rest.ts";

const configFile = process.env.STEWARD_DEV_CONFIG;

export const agentDevCommand = new sst.x.DevCommand("Agent", {
  link: [auditEventQueue, rateLimitTable, keyValueTable, scheduleTable, auditEventsBucket],
  environment: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" },
  dev: {
    title: "Steward agent",
    command: configFile ? `node bin/steward.js start --config ${configFile}` : "node bin/steward.js start",
    autostart: true,
  },
});
