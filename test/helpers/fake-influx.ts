/**
 * A loopback stand-in for InfluxDB 2.x and 3.x (neither installs here): it checks paths, query
 * parameters, the auth header and precision as the real servers do, parses line protocol
 * strictly, refuses field type conflicts with 400, and keeps what it accepted.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  LineProtocolSyntaxError,
  type ParsedPoint,
  type ParsedType,
  parseLineProtocol,
} from "./line-protocol-parser.ts";

export interface FakeInfluxOptions {
  version: 2 | 3;
  token: string;
  /** v2: the organisation that exists. */
  org?: string;
}

export interface FakeInflux {
  port: number;
  /** Databases (v3) or buckets (v2) and what was written into them. */
  databases: Map<string, { retention: unknown; points: ParsedPoint[] }>;
  requests: { method: string; path: string; query: URLSearchParams; headers: IncomingMessage["headers"] }[];
  /** When set, every write answers this status (503 = outage). */
  failWrites: number | undefined;
  close(): Promise<void>;
}

export async function startFakeInflux(options: FakeInfluxOptions): Promise<FakeInflux> {
  const fieldTypes = new Map<string, ParsedType>();
  const fake: FakeInflux = {
    port: 0,
    databases: new Map(),
    requests: [],
    failWrites: undefined,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const orgId = "0123456789abcdef";

  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    fake.requests.push({
      method: request.method ?? "",
      path: url.pathname,
      query: url.searchParams,
      headers: request.headers,
    });
    const send = (status: number, payload?: unknown) => {
      response.writeHead(status, { "Content-Type": "application/json" });
      response.end(payload === undefined ? undefined : JSON.stringify(payload));
    };
    const scheme = options.version === 2 ? "Token" : "Bearer";
    if (request.headers.authorization !== `${scheme} ${options.token}`)
      return send(401, { code: "unauthorized", message: "unauthorized access" });

    const route = `${request.method} ${url.pathname}`;
    if (options.version === 2 && route === "GET /api/v2/orgs") {
      const name = url.searchParams.get("org");
      return send(200, { orgs: name === options.org ? [{ id: orgId, name }] : [] });
    }
    if (options.version === 2 && route === "GET /api/v2/buckets") {
      if (url.searchParams.get("orgID") !== orgId)
        return send(404, { code: "not found", message: "organization not found" });
      const name = url.searchParams.get("name") ?? "";
      return send(200, { buckets: fake.databases.has(name) ? [{ name }] : [] });
    }
    if (options.version === 2 && route === "POST /api/v2/buckets") {
      const created = JSON.parse(body) as { orgID: string; name: string; retentionRules: unknown };
      if (created.orgID !== orgId) return send(400, { code: "invalid", message: "org not found" });
      if (fake.databases.has(created.name))
        return send(422, { code: "conflict", message: "bucket with name already exists" });
      fake.databases.set(created.name, { retention: created.retentionRules, points: [] });
      return send(201, { id: "b1", name: created.name });
    }
    if (options.version === 3 && route === "GET /api/v3/configure/database") {
      return send(
        200,
        [...fake.databases.keys()].map((name) => ({ "iox::database": name })),
      );
    }
    if (options.version === 3 && route === "POST /api/v3/configure/database") {
      const created = JSON.parse(body) as { db: string; retention_period?: string };
      if (fake.databases.has(created.db))
        return send(409, { error: "attempted to create a resource that already exists" });
      fake.databases.set(created.db, { retention: created.retention_period, points: [] });
      return send(200);
    }
    const isWrite =
      (options.version === 2 && route === "POST /api/v2/write") ||
      (options.version === 3 && route === "POST /api/v3/write_lp");
    if (!isWrite) return send(404, { code: "not found", message: "path not found" });

    const precision = url.searchParams.get("precision");
    const expectedPrecision = options.version === 2 ? "ms" : "millisecond";
    if (precision !== expectedPrecision)
      return send(400, { code: "invalid", message: `invalid precision ${precision}` });
    const target = options.version === 2 ? url.searchParams.get("bucket") : url.searchParams.get("db");
    if (options.version === 2 && url.searchParams.get("org") !== options.org)
      return send(404, { code: "not found", message: "organization not found" });
    const database = fake.databases.get(target ?? "");
    if (database === undefined)
      return send(404, { code: "not found", message: `database not found: ${target}` });
    if (fake.failWrites !== undefined)
      return send(fake.failWrites, { code: "unavailable", message: "failing on purpose" });
    let points: ParsedPoint[];
    try {
      points = parseLineProtocol(body);
    } catch (error) {
      if (error instanceof LineProtocolSyntaxError)
        return send(400, { code: "invalid", message: error.message });
      throw error;
    }
    for (const point of points) {
      for (const [name, field] of Object.entries(point.fields)) {
        const key = `${target}\u0000${point.measurement}\u0000${name}`;
        const known = fieldTypes.get(key);
        if (known !== undefined && known !== field.type) {
          return send(400, {
            code: "invalid",
            message: `partial write: field type conflict: input field "${name}" is type ${field.type}, already exists as type ${known}`,
          });
        }
      }
    }
    for (const point of points) {
      for (const [name, field] of Object.entries(point.fields))
        fieldTypes.set(`${target}\u0000${point.measurement}\u0000${name}`, field.type);
    }
    database.points.push(...points);
    return send(204);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.port = (server.address() as AddressInfo).port;
  return fake;
}
