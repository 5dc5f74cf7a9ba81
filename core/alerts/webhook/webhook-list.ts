/**
 * Calls every webhook of a list one after another with the same payload. A webhook that fails —
 * no answer in time, a refusal, an unreadable CA file, a method that is none of GET, POST and
 * PUT — is reported by its description and the others are still called; when any failed, the
 * alert fails naming each failure (so it is counted and shown as the destination's last error),
 * and is sent otherwise.
 */
import type { WebhookNotificationConfig } from "../../config/index.ts";
import { redactText } from "../../logging/redact.ts";
import { AlertSendError, type AlertSendResult } from "../types.ts";
import type { WebhookClient, WebhookMethod, WebhookValue } from "./webhook-client.ts";

export type WebhookEntry = WebhookNotificationConfig["reloadTaskFailure"]["webhooks"][number];

const METHODS: readonly string[] = ["GET", "POST", "PUT"];

/** The method in upper case, or undefined when it is none of GET, POST and PUT. */
function methodOf(entry: WebhookEntry): WebhookMethod | undefined {
  const method = entry.httpMethod.toUpperCase();
  return METHODS.includes(method) ? (method as WebhookMethod) : undefined;
}

export interface WebhookListDeps {
  readonly client: WebhookClient;
  readonly timeoutSeconds: number;
  /** Told of each failed webhook as it fails (the reason has no secret in it). */
  onFailure(webhook: string, reason: string): void;
}

async function callOne(
  entry: WebhookEntry,
  payload: Readonly<Record<string, WebhookValue>>,
  deps: WebhookListDeps,
): Promise<void> {
  const method = methodOf(entry);
  if (method === undefined) throw new Error(`httpMethod ${entry.httpMethod} is none of GET, POST and PUT`);
  await deps.client.call({
    url: entry.webhookURL,
    method,
    payload,
    timeoutMs: deps.timeoutSeconds * 1000,
    ...(entry.cert.enable
      ? { tls: { caFile: entry.cert.certCA, rejectUnauthorized: entry.cert.rejectUnauthorized } }
      : {}),
  });
}

/** Calls the list: `sent` when every webhook answered; AlertSendError naming each failure otherwise. */
export async function callWebhookList(
  webhooks: readonly WebhookEntry[],
  payload: Readonly<Record<string, WebhookValue>>,
  deps: WebhookListDeps,
): Promise<AlertSendResult> {
  const failures: string[] = [];
  for (const [index, entry] of webhooks.entries()) {
    const name = entry.description === "" ? `webhook ${index + 1}` : entry.description;
    try {
      await callOne(entry, payload, deps);
    } catch (error) {
      const reason = redactText((error as Error).message);
      failures.push(`${name}: ${reason}`);
      deps.onFailure(name, reason);
    }
  }
  if (failures.length > 0)
    throw new AlertSendError(
      `${failures.length} of ${webhooks.length} webhooks failed (${webhooks.length - failures.length} called): ${failures.join("; ")}`,
    );
  return { outcome: "sent", messages: webhooks.length };
}
