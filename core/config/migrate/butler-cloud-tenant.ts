/**
 * Butler's Qlik Cloud tenant (`qlikSenseCloud.event.mqtt.tenant`) as a tenant of Steward's
 * `qlikCloud.tenants`, written before the walk so that the walk converts it against the schema
 * like any other section: its URL, its bearer token as the API key (Butler's `jwt` was an API key
 * in practice), and a name made of the URL's first label. The tenant is polled, which needs the
 * key only; its webhook is off, because Butler's gateway kept no webhook secret: registering one
 * (`steward qlik-cloud webhook`) and setting `webhook.secret` turns it on. What is left of
 * Butler's section (its own alert blocks, links, tag gate) stays for the rules table, which says
 * why it is not converted; a section with nothing left goes.
 */
import { type Document, isMap, isPair, isScalar, type Pair, type YAMLMap } from "yaml";
import type { MigrationNote } from "./product-rules.ts";

const TENANT_PATH = ["event", "mqtt", "tenant"] as const;
/** The keys of Butler's tenant that the new tenant carries, or that it needs no more. */
const TAKEN = ["id", "tenantUrl", "authType", "auth", "comment"] as const;

function pairOf(map: YAMLMap, key: string): Pair | undefined {
  return map.items.find((item) => isPair(item) && isScalar(item.key) && item.key.value === key) as
    | Pair
    | undefined;
}

/** A tenant name Steward accepts (a-z, 0-9, -) from the URL's first label. */
export function tenantNameOf(url: string): string {
  let host = "";
  try {
    host = new URL(url).hostname;
  } catch {
    host = "";
  }
  const label = (host.split(".")[0] ?? "")
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 63)
    .replace(/-+$/, "");
  return label === "" ? "tenant" : label;
}

/** True when the mapping holds nothing but empty mappings. */
function empty(map: YAMLMap): boolean {
  return map.items.every((item) => isPair(item) && isMap(item.value) && empty(item.value));
}

export function butlerCloudTenant(doc: Document, source: YAMLMap): MigrationNote[] {
  const section = pairOf(source, "qlikSenseCloud");
  if (section === undefined || !isMap(section.value)) return [];
  const tenant = section.value.getIn([...TENANT_PATH]);
  if (!isMap(tenant)) return [];
  const url = tenant.get("tenantUrl");
  if (typeof url !== "string" || url.trim() === "") return [];
  const token = tenant.getIn(["auth", "jwt", "token"]);
  const name = tenantNameOf(url);
  const converted = {
    enable: section.value.get("enable") === true,
    tenants: [
      {
        name,
        url: url.trim(),
        auth: { apiKey: typeof token === "string" ? token : "" },
        webhook: { enable: false },
        poll: { enable: true },
      },
    ],
  };
  for (const key of TAKEN) tenant.delete(key);
  section.value.delete("enable");
  const at = source.items.indexOf(section as (typeof source.items)[number]);
  source.items.splice(at, empty(section.value) ? 1 : 0, doc.createPair("qlikCloud", converted));
  return [
    {
      path: "Service.qlikCloud.tenants",
      message: `from qlikSenseCloud.event.mqtt.tenant: tenant ${name} at ${url.trim()}, read by polling with its API key (auth.jwt.token); its webhook is off until one is registered (steward qlik-cloud webhook) and webhook.secret is set. Its failed reloads are alerted under the site's reloadTaskFailure blocks (docs/qlik-cloud.md)`,
    },
  ];
}
