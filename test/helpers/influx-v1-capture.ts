/**
 * A loopback stand-in for InfluxDB 1.x that keeps every write body as it arrived, byte for byte:
 * it answers `SHOW DATABASES` and every other query with an empty result, and every write with
 * 204. For tests that compare the line protocol Steward sends, where a real server would hand
 * back only what it stored, in its own order and format.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface InfluxV1Capture {
  readonly port: number;
  /** The body of every `POST /write`, in arrival order. */
  readonly writes: string[];
  stop(): Promise<void>;
}

export async function startInfluxV1Capture(): Promise<InfluxV1Capture> {
  const writes: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = new URL(req.url ?? "/", "http://localhost").pathname;
      if (path === "/write") {
        writes.push(Buffer.concat(chunks).toString("utf8"));
        res.writeHead(204).end();
        return;
      }
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ results: [{ statement_id: 0 }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    writes,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
