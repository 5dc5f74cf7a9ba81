/**
 * What the v1 adapter sends when authentication is on (the Debian influxd in the contract suite
 * runs without auth): Basic credentials on every request, and the database created with the
 * configured retention policy as its default.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTimeseriesClient } from "../../../../../core/adapters/influx/create-timeseries-client.ts";
import { parseConfig } from "../../../../../core/config/index.ts";
import { floatField } from "../../../../../core/shared/line-protocol.ts";

const seen: { method: string; url: URL; headers: IncomingHttpHeaders; body: string }[] = [];
const server = createServer(async (request, response) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const url = new URL(request.url ?? "/", "http://x");
  seen.push({
    method: request.method ?? "",
    url,
    headers: request.headers,
    body: Buffer.concat(chunks).toString(),
  });
  if (url.pathname === "/query" && url.searchParams.get("q") === "SHOW DATABASES") {
    response.writeHead(200, { "Content-Type": "application/json" });
    response.end(
      JSON.stringify({
        results: [
          { statement_id: 0, series: [{ name: "databases", columns: ["name"], values: [["_internal"]] }] },
        ],
      }),
    );
    return;
  }
  response.writeHead(url.pathname === "/write" ? 204 : 200, { "Content-Type": "application/json" });
  response.end(url.pathname === "/write" ? undefined : JSON.stringify({ results: [{ statement_id: 0 }] }));
});

let port: number;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe("InfluxDB v1 adapter with auth", () => {
  it("sends Basic credentials and creates the database with its default retention policy", async () => {
    const parsed = parseConfig({
      Service: {
        timeseriesdbConfig: {
          enable: true,
          host: "127.0.0.1",
          port,
          version: 1,
          v1Config: {
            auth: { enable: true, username: "writer", password: "p@ss:word" },
            dbName: 'audit "db"',
            retentionPolicy: { name: "two_weeks", duration: "14d" },
          },
        },
      },
    });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const writer = createTimeseriesClient(parsed.config.timeseriesdbConfig);

    await writer.ensureDatabase();
    await writer.write([{ measurement: "m", tags: {}, fields: { v: floatField(1) }, timestampMs: 5 }]);

    const basic = `Basic ${Buffer.from("writer:p@ss:word").toString("base64")}`;
    expect(seen.map((request) => request.headers.authorization)).toEqual([basic, basic, basic]);
    expect(seen[1]?.method).toBe("POST");
    expect(seen[1]?.url.searchParams.get("q")).toBe(
      'CREATE DATABASE "audit \\"db\\"" WITH DURATION 14d REPLICATION 1 NAME "two_weeks"',
    );
    expect(Object.fromEntries(seen[2]!.url.searchParams)).toEqual({
      db: 'audit "db"',
      rp: "two_weeks",
      precision: "n",
    });
    expect(seen[2]?.body).toBe("m v=1 5000000");
  });
});
