/**
 * The message that tells the cloud's hand-on function which stored run to hand on: the run's key
 * in the inbox (tenant and reload id) as JSON, nothing of its content, which stays in the inbox.
 * Read back strictly: a message that is not one is refused with the reason, never guessed at.
 */
import type { CloudReloadRun } from "./cloud-reload-run.ts";

export interface CloudRunKey {
  readonly tenant: string;
  readonly reloadId: string;
}

export function cloudRunMessage(run: CloudReloadRun): string {
  return JSON.stringify({ tenant: run.tenant, reloadId: run.reloadId } satisfies CloudRunKey);
}

export type CloudRunMessageReading =
  | { readonly ok: true; readonly key: CloudRunKey }
  | { readonly ok: false; readonly problem: string };

export function readCloudRunMessage(body: string): CloudRunMessageReading {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { ok: false, problem: "the body is not JSON" };
  }
  const { tenant, reloadId } = (typeof parsed === "object" && parsed !== null ? parsed : {}) as Record<
    string,
    unknown
  >;
  if (typeof tenant !== "string" || tenant === "" || typeof reloadId !== "string" || reloadId === "")
    return { ok: false, problem: "the body names no tenant and reload id" };
  return { ok: true, key: { tenant, reloadId } };
}
