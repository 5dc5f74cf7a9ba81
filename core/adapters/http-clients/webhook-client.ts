/**
 * Calls an operator's webhook: GET with the payload as query parameters, POST and PUT with it as
 * a JSON body, every method with the same time limit (a receiver that never answers must not
 * hold the alert). With `tls`, the endpoint's certificate is checked against the operator's CA,
 * read at every call so that a renewed CA file needs no restart. Errors never hold the URL.
 */
import { readFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { request as httpsRequest, type RequestOptions } from "node:https";
import type { WebhookCall, WebhookClient } from "../../alerts/index.ts";

function target(call: WebhookCall): URL {
  const url = new URL(call.url);
  if (call.method === "GET")
    for (const [key, value] of Object.entries(call.payload)) url.searchParams.set(key, String(value ?? ""));
  return url;
}

async function tlsOptions(call: WebhookCall): Promise<RequestOptions> {
  if (call.tls === undefined) return {};
  let ca: string;
  try {
    ca = await readFile(call.tls.caFile, "utf8");
  } catch (error) {
    throw new Error(
      `the CA file ${call.tls.caFile} cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`,
    );
  }
  return { ca, rejectUnauthorized: call.tls.rejectUnauthorized };
}

export function createWebhookClient(): WebhookClient {
  return {
    async call(call) {
      const url = target(call);
      const body = call.method === "GET" ? undefined : JSON.stringify(call.payload);
      const options: RequestOptions = {
        method: call.method,
        signal: AbortSignal.timeout(call.timeoutMs),
        headers:
          body === undefined
            ? {}
            : { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) },
        ...(url.protocol === "https:" ? await tlsOptions(call) : {}),
      };
      const send = url.protocol === "https:" ? httpsRequest : httpRequest;
      const status = await new Promise<number>((resolve, reject) => {
        const req = send(url, options, (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
          res.on("error", reject);
        });
        req.on("error", (error: Error) =>
          reject(
            error.name === "AbortError"
              ? new Error(`no answer within ${call.timeoutMs} ms`)
              : new Error(`the call failed: ${(error as NodeJS.ErrnoException).code ?? error.message}`),
          ),
        );
        req.end(body);
      });
      if (status < 200 || status > 299) throw new Error(`the webhook answered HTTP ${status}`);
    },
  };
}
