/**
 * A failed or canceled reload of a tenant as an alert (core/alerts/cloud-reload-alert.ts),
 * enriched through the tenant's client: the app (`/api/v1/apps/{id}`: its name, owner and space),
 * its space (`/api/v1/spaces/{id}`), its owner and the user who reloaded (`/api/v1/users/{id}`),
 * and the reload's script log (`/api/v1/apps/{app}/reloads/logs/{reload}`, text). The lookups run
 * side by side; each that fails leaves its part "not available" with the reason, so the alert
 * always goes out with what is known. A successful run is no alert.
 */
import {
  available,
  type CloudReloadAlert,
  type CloudReloadAlertKind,
  type CloudUser,
  type Enriched,
  notAvailable,
  type ScriptLog,
} from "../alerts/index.ts";
import type { TenantClient } from "../ports.ts";
import type { CloudReloadRun } from "./cloud-reload-run.ts";

const KINDS: Readonly<Partial<Record<CloudReloadRun["kind"], CloudReloadAlertKind>>> = {
  reloadTaskFailure: "qlikCloudReloadFailure",
  reloadTaskAborted: "qlikCloudReloadAborted",
};

/** The alert kind of a run, or undefined for a successful one. */
export function cloudAlertKind(run: CloudReloadRun): CloudReloadAlertKind | undefined {
  return KINDS[run.kind];
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function lookUp<T>(look: () => Promise<T>): Promise<Enriched<T>> {
  try {
    return available(await look());
  } catch (error) {
    return notAvailable(reasonOf(error));
  }
}

const record = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
const textOf = (value: unknown) => (typeof value === "string" ? value : "");

async function user(
  client: TenantClient,
  id: string | undefined,
  what: string,
): Promise<Enriched<CloudUser>> {
  if (id === undefined || id === "") return notAvailable(`the run names no ${what}`);
  return lookUp(async () => {
    const found = record(await client.json({ path: `/api/v1/users/${encodeURIComponent(id)}` }));
    return { id, name: textOf(found.name) || id, email: textOf(found.email) };
  });
}

/** The script log's lines, line ends of either kind. */
export function scriptLogOf(text: string): ScriptLog {
  const lines = text.replace(/\r\n?/g, "\n").replace(/\n$/, "").split("\n");
  return { lines, lineCount: lines.length, characters: text.length };
}

/** The run's script log, downloaded as text; "not available" with the reason when the call fails. */
export function cloudScriptLog(run: CloudReloadRun, client: TenantClient): Promise<Enriched<ScriptLog>> {
  const path = `/api/v1/apps/${encodeURIComponent(run.appId)}/reloads/logs/${encodeURIComponent(run.reloadId)}`;
  return lookUp(async () => scriptLogOf(await client.text({ path })));
}

export async function cloudRunAlert(
  run: CloudReloadRun,
  tenant: { readonly name: string; readonly url: string },
  client: TenantClient,
): Promise<CloudReloadAlert | undefined> {
  const kind = cloudAlertKind(run);
  if (kind === undefined) return undefined;
  const appPath = `/api/v1/apps/${encodeURIComponent(run.appId)}`;
  const attributes = lookUp(async () => record(record(await client.json({ path: appPath })).attributes));
  const scriptLog = cloudScriptLog(run, client);
  const app = await attributes;
  const found = app.available ? app.value : {};
  const spaceId = run.spaceId ?? (textOf(found.spaceId) || undefined);
  const space: Promise<Enriched<{ id: string; name: string }>> =
    spaceId === undefined
      ? Promise.resolve(notAvailable(app.available ? "the app is in no shared space" : app.reason))
      : lookUp(async () => {
          const body = record(await client.json({ path: `/api/v1/spaces/${encodeURIComponent(spaceId)}` }));
          return { id: spaceId, name: textOf(body.name) || spaceId };
        });
  const [owner, reloadedBy] = await Promise.all([
    user(client, run.ownerId ?? (textOf(found.ownerId) || undefined), "owner"),
    user(client, run.userId, "user"),
  ]);
  return {
    kind,
    tenant: { name: tenant.name, url: tenant.url.replace(/\/+$/, "") },
    run,
    app: app.available ? available({ name: textOf(found.name) || run.appId }) : notAvailable(app.reason),
    space: await space,
    owner,
    reloadedBy,
    scriptLog: await scriptLog,
  };
}
