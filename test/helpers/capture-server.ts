/**
 * A loopback HTTP server that records every request (method, path, headers, body) and answers
 * with the status the test sets, or not at all; it stands in for third-party APIs with no local
 * server. With `tls` it speaks HTTPS with that certificate, for clients that check it against a CA.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";

export interface CapturedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** An HTTP status, or "no answer" to hold the request open until the server stops. */
export type CaptureAnswer = number | "no answer";

export interface CaptureServer {
  url: string;
  requests: CapturedRequest[];
  /** Answer for the following requests; may depend on the request. */
  respondWith(answer: CaptureAnswer | ((request: CapturedRequest) => CaptureAnswer)): void;
  stop(): Promise<void>;
}

export interface CaptureServerOptions {
  /** PEM certificate and key: the server speaks HTTPS. */
  readonly tls?: { readonly cert: string; readonly key: string };
}

export async function startCaptureServer(options: CaptureServerOptions = {}): Promise<CaptureServer> {
  const requests: CapturedRequest[] = [];
  let answer: CaptureAnswer | ((request: CapturedRequest) => CaptureAnswer) = 202;
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(request);
      const status = typeof answer === "function" ? answer(request) : answer;
      if (status === "no answer") return;
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify({ ok: status < 300 }));
    });
  };
  const server = options.tls === undefined ? createServer(handle) : createHttpsServer(options.tls, handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls === undefined ? "http" : "https"}://127.0.0.1:${port}`,
    requests,
    respondWith(next) {
      answer = next;
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
