/**
 * `steward qlik-cloud webhook --tenant NAME --url PUBLIC_URL [--dry-run]`: creates or updates the
 * tenant's webhook so that it sends Steward the event types it handles, signed with the secret
 * of `qlikCloud.tenants[].webhook.secret` (Qlik never gives a secret back, so Steward's copy is
 * the one that counts). Through `/api/core/webhooks`, or `/api/v1/webhooks` on a tenant without
 * it (the v1 API is removed on or after 2027-11-01). The tenant's webhook is the one with this URL,
 * else the one of Steward's name for the tenant; it is updated with a JSON Patch of what Steward
 * sets (a PUT would clear every field it left out, and could not keep CloudEvents delivery, which
 * cannot be turned off), or created at tenant level (to see every user's reloads). `--dry-run`
 * reads the list to tell create from update, then prints the request it would send, secret
 * masked, and changes nothing. Prints what it did; exit 1 with the tenant's answer when it fails.
 */
import type { ParseArgsConfig } from "node:util";
import { createTenantHttpClient } from "../../core/adapters/qlik-cloud/tenant-http-client.ts";
import { type Config, isSecretKey, MASK } from "../../core/config/index.ts";
import type { TenantClient } from "../../core/ports.ts";
import { HANDLED_EVENT_TYPES, IGNORED_CALL_EVENTS, TenantApiError } from "../../core/qlik-cloud/index.ts";
import { systemClock } from "../../core/system-clock.ts";
import { credentialOf } from "../../functions/qlik-cloud/tenant-wiring.ts";
import { QLIK_CLOUD_WEBHOOK_PREFIX } from "../../functions/qlik-cloud/webhook-handler.ts";
import type { CliIo } from "./cli.ts";

/** The command's own options, merged into the command line's parser by cli.ts. */
export const QLIK_CLOUD_WEBHOOK_OPTIONS = {
  tenant: { type: "string" },
  url: { type: "string" },
  "dry-run": { type: "boolean" },
} as const satisfies NonNullable<ParseArgsConfig["options"]>;

export interface WebhookCommand {
  readonly tenant: string;
  readonly url: string;
  readonly dryRun: boolean;
}

interface Listed {
  readonly id: string;
  readonly name: string;
  readonly url: string;
}

const API_PATHS = ["/api/core/webhooks", "/api/v1/webhooks"] as const;

const webhookName = (tenant: string) => `Steward (${tenant})`;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The tenant's webhooks (following `next`), and through which API: the core one unless it is missing. */
async function listWebhooks(client: TenantClient): Promise<{ api: string; webhooks: Listed[] }> {
  for (const api of API_PATHS) {
    const webhooks: Listed[] = [];
    let next: string | undefined;
    try {
      for (let page = 0; page < 50; page += 1) {
        const body = await client.json({ path: api, query: { limit: 100, next } });
        const data = isRecord(body) && Array.isArray(body.data) ? body.data : [];
        for (const item of data) {
          if (isRecord(item) && typeof item.id === "string")
            webhooks.push({ id: item.id, name: String(item.name ?? ""), url: String(item.url ?? "") });
        }
        const href =
          isRecord(body) && isRecord(body.links) && isRecord(body.links.next)
            ? body.links.next.href
            : undefined;
        next =
          typeof href === "string" && URL.canParse(href)
            ? (new URL(href).searchParams.get("next") ?? undefined)
            : undefined;
        if (next === undefined) break;
      }
      return { api, webhooks };
    } catch (error) {
      if (!(error instanceof TenantApiError && error.status === 404 && api === API_PATHS[0])) throw error;
    }
  }
  throw new Error("unreachable: the v1 API's failure is thrown");
}

/** A copy to print: every secret masked, whatever it is nested in. */
function masked(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map((item) =>
      isRecord(item) && item.path === "/secret" ? { ...item, value: MASK } : masked(item),
    );
  }
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [key, isSecretKey(key) && v !== "" ? MASK : masked(v)]),
  );
}

/** Problems with the command's values, before anything is sent. */
function refusal(config: Config, command: WebhookCommand): string | undefined {
  if (!config.qlikCloud.enable)
    return "qlikCloud.enable is not true in the configuration, so its tenants are not checked: switch it on first";
  const tenant = config.qlikCloud.tenants.find((candidate) => candidate.name === command.tenant);
  if (tenant === undefined) {
    const names = config.qlikCloud.tenants.map((candidate) => candidate.name).join(", ") || "none";
    return `no tenant "${command.tenant}" in qlikCloud.tenants (there are: ${names})`;
  }
  if (!tenant.webhook.enable)
    return `tenant "${command.tenant}" has webhook.enable: false; switch it on first`;
  if (!URL.canParse(command.url) || !/^https?:$/.test(new URL(command.url).protocol))
    return `--url must be the http(s) URL Qlik is to call (got "${command.url}")`;
  return undefined;
}

type TenantSettings = Config["qlikCloud"]["tenants"][number];

/** What registering sends: a POST creating the webhook, or a JSON Patch of the one found. */
function writeRequest(api: string, existing: Listed | undefined, tenant: TenantSettings, url: string) {
  const eventTypes = [...HANDLED_EVENT_TYPES];
  if (existing === undefined) {
    return {
      method: "POST" as const,
      path: api,
      body: {
        name: webhookName(tenant.name),
        description: "Finished reloads for Steward (registered by steward qlik-cloud webhook)",
        url,
        eventTypes,
        level: "tenant",
        secret: tenant.webhook.secret,
        enabled: true,
      },
    };
  }
  return {
    method: "PATCH" as const,
    path: `${api}/${existing.id}`,
    body: [
      { op: "replace", path: "/url", value: url },
      { op: "replace", path: "/eventTypes", value: eventTypes },
      { op: "replace", path: "/secret", value: tenant.webhook.secret },
      { op: "replace", path: "/enabled", value: true },
    ],
  };
}

/** Notes on a URL Qlik or Steward would not use as given. */
function urlNotes(url: URL, tenant: string): string[] {
  const notes: string[] = [];
  if (url.protocol !== "https:")
    notes.push("Qlik Cloud calls only https URLs of a host name; a plain http URL suits the simulator only");
  if (!url.pathname.endsWith(`${QLIK_CLOUD_WEBHOOK_PREFIX}${tenant}`))
    notes.push(
      `Steward takes this tenant's webhooks at ${QLIK_CLOUD_WEBHOOK_PREFIX}${tenant} on the ingest API's listener; --url does not end so`,
    );
  return notes;
}

export async function registerWebhook(config: Config, command: WebhookCommand, io: CliIo): Promise<number> {
  const refused = refusal(config, command);
  const tenant = config.qlikCloud.tenants.find((candidate) => candidate.name === command.tenant);
  if (refused !== undefined || tenant === undefined) {
    io.stderr.write(`steward: ${refused}\n`);
    return 1;
  }
  for (const note of urlNotes(new URL(command.url), tenant.name)) io.stderr.write(`steward: note: ${note}\n`);
  const client = createTenantHttpClient({
    tenant: tenant.name,
    url: tenant.url,
    credential: credentialOf(tenant),
    clock: systemClock,
    events: IGNORED_CALL_EVENTS,
  });
  try {
    const { api, webhooks } = await listWebhooks(client);
    const existing =
      webhooks.find((webhook) => webhook.url === command.url) ??
      webhooks.find((webhook) => webhook.name === webhookName(tenant.name));
    const request = writeRequest(api, existing, tenant, command.url);
    if (command.dryRun) {
      const what =
        existing === undefined ? "create a webhook" : `update webhook ${existing.id} ("${existing.name}")`;
      const body = JSON.stringify(masked(request.body), null, 2);
      io.stdout.write(
        `Would ${what} on tenant ${tenant.name} with:\n${request.method} ${tenant.url}${request.path}\n${body}\n`,
      );
      return 0;
    }
    const answer = await client.json(request);
    const id = existing?.id ?? (isRecord(answer) && typeof answer.id === "string" ? answer.id : "?");
    io.stdout.write(
      `${existing === undefined ? "Created" : "Updated"} webhook ${id} on tenant ${tenant.name} (${api}): ` +
        `${command.url}, event types ${HANDLED_EVENT_TYPES.join(", ")}, signed with qlikCloud.tenants[].webhook.secret\n`,
    );
    return 0;
  } catch (error) {
    io.stderr.write(`steward: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
