/**
 * The cloud store names from SST's resource links, for the agent `npx sst dev` runs (infra/dev.ts).
 * SST hands a linked process each resource as `SST_RESOURCE_<Name>` (JSON of the link's
 * properties) and `SST_RESOURCE_App` ({name, stage}); SST's own `Resource` reads exactly these
 * variables (node_modules/sst/dist/resource/shared.js). They are parsed here rather than through
 * `Resource` because `sst` is a development dependency that a production install of the agent
 * does not have, and because `Resource` caches the environment of its first use.
 *
 * When links are active (`SST_RESOURCE_App` is set) and at least one store is linked, the linked
 * names replace the `cloud.*` ones and `cloud.enable` turns on; `cloud.region` keeps its value,
 * else comes from `AWS_REGION` (which `sst dev` sets), else from the queue URL. Without links the
 * configuration is returned as loaded.
 */
import type { Config, ConfigProblem } from "../../core/config/index.ts";

type Env = Readonly<Record<string, string | undefined>>;
type CloudConfig = Config["cloud"];

/** Link name → the `cloud.*` key it fills and the link property holding the value. */
const LINKS = [
  { link: "AuditEventQueue", property: "url", key: "eventQueueUrl" },
  { link: "RateLimitTable", property: "name", key: "rateLimitTable" },
  { link: "KeyValueTable", property: "name", key: "keyValueTable" },
  { link: "ScheduleTable", property: "name", key: "scheduleTable" },
  { link: "AuditEventsBucket", property: "name", key: "bucketName" },
] as const satisfies readonly { link: string; property: string; key: keyof CloudConfig }[];

export type SstLinksResult =
  | { ok: true; config: Config; applied?: { stage: string; links: string[] } }
  | { ok: false; problems: ConfigProblem[] };

/** `config` with the cloud store names of the SST links in `env`, or every malformed link. */
export function applySstLinks(config: Config, env: Env): SstLinksResult {
  if (!env.SST_RESOURCE_App) return { ok: true, config };
  const problems: ConfigProblem[] = [];
  const app = parseLink(env, "App", "stage", problems);
  const cloud: CloudConfig = { ...config.cloud };
  const links: string[] = [];
  for (const { link, property, key } of LINKS) {
    const value = parseLink(env, link, property, problems);
    if (value === undefined) continue;
    cloud[key] = value;
    links.push(link);
  }
  if (problems.length > 0) return { ok: false, problems };
  if (links.length === 0) return { ok: true, config };
  cloud.enable = true;
  cloud.region = config.cloud.region || env.AWS_REGION || env.AWS_DEFAULT_REGION || queueRegion(cloud);
  if (cloud.region === "") {
    problems.push({
      path: "Service.cloud.region",
      message: "required with SST links: set it, or AWS_REGION, or link the AuditEventQueue",
    });
    return { ok: false, problems };
  }
  return { ok: true, config: { ...config, cloud }, applied: { stage: app ?? "", links } };
}

/** The string `property` of link `name`; undefined when not linked; a problem when malformed. */
function parseLink(env: Env, name: string, property: string, problems: ConfigProblem[]): string | undefined {
  const variable = `SST_RESOURCE_${name}`;
  const text = env[variable];
  if (text === undefined || text === "") return undefined;
  let value: unknown;
  try {
    value = (JSON.parse(text) as Record<string, unknown> | null)?.[property];
  } catch {
    problems.push({ path: variable, message: "is not JSON (SST writes each link as a JSON object)" });
    return undefined;
  }
  if (typeof value === "string" && value !== "") return value;
  problems.push({ path: variable, message: `has no "${property}" string` });
  return undefined;
}

/** `https://sqs.eu-west-1.amazonaws.com/123456789012/name` → "eu-west-1"; "" when not an SQS URL. */
function queueRegion(cloud: CloudConfig): string {
  return /^https:\/\/sqs\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?\//.exec(cloud.eventQueueUrl)?.[1] ?? "";
}
