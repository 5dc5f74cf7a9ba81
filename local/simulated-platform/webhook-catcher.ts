/**
 * The webhook catcher of `steward simulate-platform --task-events` and `steward
 * simulate-qlik-cloud`: a plain HTTP listener that
 * answers every call 204 and hands it over (method, path, and what it carried: a JSON body's
 * fields, or the query's), so that the simulator can show the alert Steward sent. It stands for
 * the operator's own endpoint in a first try of reload alerts, where the only other trace would
 * be a log line. Calls come from the network: a body is read up to 64 KiB (a larger one is
 * answered 413 and still shown), and a body that is not a JSON object is shown as a short
 * preview, so nothing a caller sends can crash it or fill its memory.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { sanitiseField } from "../../core/udp/index.ts";

export const MAX_CAUGHT_BODY_BYTES = 64 * 1024;
const PREVIEW_LENGTH = 200;

/** One call the catcher got. */
export interface CaughtCall {
  readonly method: string;
  readonly path: string;
  /** The JSON body's fields (POST, PUT) or the query's (GET), as text; empty when there are none. */
  readonly fields: Readonly<Record<string, string>>;
  /** The start of a body that is not a JSON object, or what was wrong with it; absent otherwise. */
  readonly preview?: string;
}

export interface WebhookCatcherOptions {
  readonly host: string;
  /** 0 (the default): a free port. */
  readonly port?: number;
  readonly onCall: (call: CaughtCall) => void;
}

export interface WebhookCatcher {
  /** The listening address as a URL without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  stop(): Promise<void>;
}

export async function startWebhookCatcher(options: WebhookCatcherOptions): Promise<WebhookCatcher> {
  const server = createServer((request, response) => {
    readBody(request).then(
      ({ body, tooLarge }) => {
        options.onCall(caughtCall(request, body, tooLarge));
        response.writeHead(tooLarge ? 413 : 204, tooLarge ? { connection: "close" } : {}).end();
      },
      () => response.destroy(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host === "0.0.0.0" || options.host === "::" ? "127.0.0.1" : options.host;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * What a caught call shows in the simulator's log: a reload alert's event, task, app and run (a
 * Qlik Cloud run's too: its task name names the tenant); else every field.
 */
export function shownCall(call: CaughtCall): Record<string, string | number> {
  const summary = ["event", "taskName", "appName", "executionId"].filter((key) => key in call.fields);
  const shown = summary.length > 0 ? summary : Object.keys(call.fields);
  return {
    method: call.method,
    path: call.path,
    ...Object.fromEntries(shown.map((key) => [key, call.fields[key] ?? ""])),
    fields: Object.keys(call.fields).length,
    ...(call.preview === undefined ? {} : { body: call.preview }),
  };
}

/** The body, up to the limit; `tooLarge` when the caller sent more (the rest is not read). */
function readBody(request: IncomingMessage): Promise<{ body: string; tooLarge: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_CAUGHT_BODY_BYTES) {
        request.removeAllListeners("data");
        request.pause();
        resolve({ body: Buffer.concat(chunks).toString("utf8"), tooLarge: true });
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => resolve({ body: Buffer.concat(chunks).toString("utf8"), tooLarge: false }));
    request.on("error", reject);
  });
}

function caughtCall(request: IncomingMessage, body: string, tooLarge: boolean): CaughtCall {
  const url = new URL(request.url ?? "/", "http://catcher");
  const method = sanitiseField(request.method ?? "", 10);
  const path = sanitiseField(url.pathname, PREVIEW_LENGTH);
  if (tooLarge) {
    return { method, path, fields: {}, preview: `a body over ${MAX_CAUGHT_BODY_BYTES} bytes (answered 413)` };
  }
  if (body === "") return { method, path, fields: textFields([...url.searchParams]) };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { method, path, fields: {}, preview: sanitiseField(body, PREVIEW_LENGTH) };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return { method, path, fields: {}, preview: sanitiseField(body, PREVIEW_LENGTH) };
  }
  return { method, path, fields: textFields(Object.entries(parsed)) };
}

/** Each field as short text without control characters (nested values as JSON). */
function textFields(entries: readonly [string, unknown][]): Record<string, string> {
  return Object.fromEntries(
    entries.slice(0, 50).map(([key, value]) => {
      const text = typeof value === "string" ? value : JSON.stringify(value);
      return [sanitiseField(key, 50), sanitiseField(text ?? "", PREVIEW_LENGTH)];
    }),
  );
}
