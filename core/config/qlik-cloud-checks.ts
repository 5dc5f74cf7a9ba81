/**
 * The rules between the settings of `qlikCloud.tenants[]`, run with the other cross-checks on
 * the typed config once the section is on:
 * - names are unique: a name is the `tenant` tag, the webhook's path and the cursor files' name,
 *   so two tenants of one name would mix their runs and cursors;
 * - each tenant has exactly one credential, an OAuth client (id and secret together) or an API
 *   key: with both, which one is used would be a guess;
 * - a tenant's webhook needs the ingest API's listener (`auditEvents.enable`), which receives it;
 *   without it Qlik's deliveries would reach nothing while the configuration says they are on.
 */
import { type ConfigProblem, type PathSegment, problem } from "./problems.ts";
import type { Config } from "./schema/config.ts";

const BASE: PathSegment[] = ["Service", "qlikCloud", "tenants"];

type Tenant = Config["qlikCloud"]["tenants"][number];

function checkCredential(tenant: Tenant, path: PathSegment[], out: ConfigProblem[]): void {
  const { oauth, apiKey } = tenant.auth;
  const oauthGiven = oauth.clientId !== "" || oauth.clientSecret !== "";
  const auth = [...path, "auth"];
  if (oauthGiven && apiKey !== "") {
    out.push(problem(auth, "give either oauth (clientId and clientSecret) or apiKey, not both"));
    return;
  }
  if (!oauthGiven && apiKey === "") {
    out.push(
      problem(auth, "required: oauth (clientId and clientSecret of a machine-to-machine client) or apiKey"),
    );
    return;
  }
  if (!oauthGiven) return;
  if (oauth.clientId === "") out.push(problem([...auth, "oauth", "clientId"], "required with clientSecret"));
  if (oauth.clientSecret === "")
    out.push(problem([...auth, "oauth", "clientSecret"], "required with clientId"));
}

export function checkQlikCloud(config: Config, out: ConfigProblem[]): void {
  const cloud = config.qlikCloud;
  if (!cloud.enable) return;
  const seen = new Map<string, number>();
  cloud.tenants.forEach((tenant, i) => {
    const path = [...BASE, i];
    const first = seen.get(tenant.name);
    if (first !== undefined && tenant.name !== "") {
      out.push(problem([...path, "name"], `"${tenant.name}" is already the name of tenants[${first}]`));
    } else {
      seen.set(tenant.name, i);
    }
    checkCredential(tenant, path, out);
    if (tenant.webhook.enable && !config.auditEvents.enable) {
      out.push(
        problem(
          [...path, "webhook", "enable"],
          "webhooks are received on the ingest API's listener: needs auditEvents.enable: true " +
            "(or set it to false and let polling find the tenant's runs)",
        ),
      );
    }
  });
}
