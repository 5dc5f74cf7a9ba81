/**
 * The InfluxDB adapters' one HTTP request (node:http): the body sent as given, answers and
 * failures as TimeseriesWriteError, the timeout, and a server that answers before it has read
 * the whole body.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  durationSeconds,
  influxRequest,
  isInfluxDuration,
} from "../../../../../core/adapters/influx/influx-http.ts";
import { TimeseriesWriteError } from "../../../../../core/destinations/timeseries-write-error.ts";

const received: { path: string; headers: IncomingHttpHeaders; body: Buffer }[] = [];
const server = createServer(async (request, response) => {
  const path = new URL(request.url ?? "/", "http://x").pathname;
  if (path === "/silent") return; // never answers
  if (path === "/early") {
    // Answers before reading the body, as a server refusing credentials may.
    response.writeHead(401, { "Content-Type": "application/json" });
    response.end('{"error":"authorization failed"}');
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  received.push({ path, headers: request.headers, body: Buffer.concat(chunks) });
  if (path === "/refuse") {
    response.writeHead(400, { "Content-Type": "application/json" });
    response.end(`{"error":"partial write: ${"x".repeat(600)}"}`);
    return;
  }
  response.writeHead(204);
  response.end();
});

let base: string;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(resolve));
});

const post = (path: string, body: string | Uint8Array, timeoutMs = 5000) =>
  influxRequest({ method: "POST", url: new URL(`${path}?db=d`, base), headers: {}, body, timeoutMs });

describe("InfluxDB HTTP request", () => {
  it("sends a body of bytes or text exactly, with its length", async () => {
    received.length = 0;
    const bytes = Buffer.from("m,t=ü v=1 5\nm v=2 6");

    await post("/write", bytes);
    await post("/write", "m v=3 7");

    expect(received.map((request) => request.body.toString("utf8"))).toEqual([
      "m,t=ü v=1 5\nm v=2 6",
      "m v=3 7",
    ]);
    expect(received[0]?.headers["content-length"]).toBe(String(bytes.byteLength));
  });

  it("throws the server's status and the start of its answer for a refusal", async () => {
    const error = (await post("/refuse", "m v=1").catch((e: unknown) => e)) as TimeseriesWriteError;

    expect(error).toBeInstanceOf(TimeseriesWriteError);
    expect(error.status).toBe(400);
    expect(error.refusesData).toBe(true);
    expect(error.message).toMatch(
      /^POST http:\/\/127\.0\.0\.1:\d+\/refuse answered 400: \{"error":"partial write: x+$/,
    );
    expect(error.message).not.toContain("?db=");
  });

  it("gives up after the timeout as an outage, without a status", async () => {
    const started = Date.now();

    const error = (await post("/silent", "m v=1", 300).catch((e: unknown) => e)) as TimeseriesWriteError;

    expect(error).toBeInstanceOf(TimeseriesWriteError);
    expect(error.status).toBeUndefined();
    expect(error.message).toMatch(/\/silent failed: no answer$/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it("reports an answer given before the whole body was read, and goes on working", async () => {
    const large = Buffer.alloc(8 * 1024 * 1024, "m v=1 5\n");

    const error = (await post("/early", large).catch((e: unknown) => e)) as TimeseriesWriteError;
    await post("/write", "m v=4 8");

    expect(error.status).toBe(401);
    expect(received.at(-1)?.body.toString("utf8")).toBe("m v=4 8");
  });
});

describe("InfluxDB duration literal", () => {
  it("accepts InfluxDB's units, the micro sign among them, and counts their seconds", () => {
    for (const literal of ["30d", "1h30m", "INF", "inf", "500ms", "1500\u00b5s", "1500us", "2w"]) {
      expect(isInfluxDuration(literal), literal).toBe(true);
    }
    expect(durationSeconds("1h30m")).toBe(5400);
    expect(durationSeconds("2500000\u00b5s")).toBe(3);
    expect(durationSeconds("INF")).toBe(0);
  });

  it("refuses what is not one, before it reaches a query", () => {
    for (const literal of ["", "30", "30 d", "1y", "30d; DROP", "\u00b5s"]) {
      expect(isInfluxDuration(literal), literal).toBe(false);
    }
  });
});
