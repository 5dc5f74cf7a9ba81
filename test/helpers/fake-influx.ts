/**
 * A loopback stand-in for InfluxDB 2.x and 3.x (neither installs here): it checks paths, query
 * parameters, the auth header and precision as the real servers do, parses line protocol
 * strictly, keeps what it accepted, and refuses data the way the real servers answer.
 *
 * What it answers, and what that rests on:
 * - Writes take nanosecond precision (`precision=ns` for 2.x, `nanosecond` for 3), which is what
 *   Steward sends; any other precision is a 400.
 * - 2.x (the write handler of influxdata/influxdb 2.x; the 2.x "troubleshoot writes"
 *   documentation, 2.7.11 examples): a body with an unparsable line is refused whole, nothing
 *   stored, 400 `{"code":"invalid","message":"unable to parse '<line>': <why>"}` (one entry per
 *   bad line, joined by "\n"). Points the storage engine refuses are dropped and the rest stored,
 *   answered 422 `{"code":"unprocessable entity","message":"failure writing points to database:
 *   partial write: <reason> dropped=N"}`: a field whose type differs from the one it has in the
 *   bucket (or earlier in the request) is `field type conflict: input field "f" on measurement
 *   "m" is type string, already exists as type float`, naming the first conflict and counting all;
 *   points older than the bucket's retention are `dropped N points outside retention policy of
 *   duration <d> - oldest point <series> at <time> dropped because it violates a Retention Policy
 *   Lower Bound at <bound>, newest point ... dropped=N for database: <id> for retention policy:
 *   autogen` (2.7.11's wording).
 * - 3 (InfluxDB 3 Core's write_lp handler and its tests; the 3.x "write data" documentation on
 *   partial writes): with partial writes accepted (the default, which Steward keeps), every line
 *   that does not parse or does not fit the table's column types is refused on its own and the
 *   others stored, answered 400 `{"error":"partial write of line protocol occurred","data":[
 *   {"original_line","line_number" (1-based),"error_message"}]}`; a type mismatch reads `invalid
 *   column type for column 'f', expected iox::column_type::field::float, got
 *   iox::column_type::field::string`, a line that does not parse gets the parser's words
 *   (`Could not parse entire line. …`; the stand-in adds its own parser's reason). InfluxDB 3 Core's wording for a write beyond a database's
 *   retention period is not documented, so the stand-in does not refuse by retention.
 * - `failWrites` set: every write answers that status (503 = an outage) and stores nothing.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type ParsedPoint, type ParsedType, parseLines } from "./line-protocol-parser.ts";

export interface FakeInfluxOptions {
  version: 2 | 3;
  token: string;
  /** v2: the organisation that exists. */
  org?: string;
}

export interface FakeDatabase {
  retention: unknown;
  points: ParsedPoint[];
}

export interface FakeInflux {
  port: number;
  /** Databases (v3) or buckets (v2) and what was written into them. */
  databases: Map<string, FakeDatabase>;
  requests: { method: string; path: string; query: URLSearchParams; headers: IncomingMessage["headers"] }[];
  /** Write requests only, with their answer's status. */
  writes: { status: number; lines: number }[];
  /** When set, every write answers this status (503 = outage). */
  failWrites: number | undefined;
  close(): Promise<void>;
}

interface WriteAnswer {
  status: number;
  payload?: unknown;
}

export async function startFakeInflux(options: FakeInfluxOptions): Promise<FakeInflux> {
  const fieldTypes = new Map<string, ParsedType>();
  const fake: FakeInflux = {
    port: 0,
    databases: new Map(),
    requests: [],
    writes: [],
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
    const expectedPrecision = options.version === 2 ? "ns" : "nanosecond";
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
    const typeKey = (point: ParsedPoint, field: string) =>
      `${target}\u0000${point.measurement}\u0000${field}`;
    const write = options.version === 2 ? writeV2 : writeV3;
    const answer = write(body, database, fieldTypes, typeKey);
    fake.writes.push({ status: answer.status, lines: parseLines(body).length });
    return send(answer.status, answer.payload);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.port = (server.address() as AddressInfo).port;
  return fake;
}

type TypeKey = (point: ParsedPoint, field: string) => string;

/** The field of `point` whose type differs from the one it already has, if any. */
function conflictOf(point: ParsedPoint, fieldTypes: Map<string, ParsedType>, typeKey: TypeKey) {
  for (const [name, field] of Object.entries(point.fields)) {
    const known = fieldTypes.get(typeKey(point, name));
    if (known !== undefined && known !== field.type) return { name, type: field.type, known };
  }
  return undefined;
}

function keepTypes(point: ParsedPoint, fieldTypes: Map<string, ParsedType>, typeKey: TypeKey): void {
  for (const [name, field] of Object.entries(point.fields)) fieldTypes.set(typeKey(point, name), field.type);
}

/** InfluxDB 2.x: a request with an unparsable line is refused whole; stored points are checked one by one. */
function writeV2(
  body: string,
  database: FakeDatabase,
  fieldTypes: Map<string, ParsedType>,
  typeKey: TypeKey,
): WriteAnswer {
  const lines = parseLines(body);
  const unparsable = lines.flatMap((parsed) =>
    "error" in parsed ? [`unable to parse '${parsed.line}': ${parsed.error.message}`] : [],
  );
  if (unparsable.length > 0)
    return { status: 400, payload: { code: "invalid", message: unparsable.join("\n") } };
  const everySeconds = retentionSeconds(database.retention);
  const bound = everySeconds === undefined ? undefined : Date.now() - everySeconds * 1000;
  const expired: ParsedPoint[] = [];
  const conflicts: string[] = [];
  for (const parsed of lines) {
    if ("error" in parsed) continue;
    const point = parsed.point;
    if (bound !== undefined && point.timestamp !== undefined && point.timestamp < bound) {
      expired.push(point);
      continue;
    }
    const conflict = conflictOf(point, fieldTypes, typeKey);
    if (conflict !== undefined) {
      conflicts.push(
        `field type conflict: input field "${conflict.name}" on measurement "${point.measurement}" is type ${conflict.type}, already exists as type ${conflict.known}`,
      );
      continue;
    }
    keepTypes(point, fieldTypes, typeKey);
    database.points.push(point);
  }
  const partial = (reason: string, dropped: number, tail = "") => ({
    status: 422,
    payload: {
      code: "unprocessable entity",
      message: `failure writing points to database: partial write: ${reason} dropped=${dropped}${tail}`,
    },
  });
  // As the storage engine: a conflict in a shard is what it reports; points beyond retention
  // beside it go uncounted.
  if (conflicts.length > 0) return partial(conflicts[0] as string, conflicts.length);
  if (expired.length > 0 && bound !== undefined) {
    const times = expired.map((point) => point.timestamp as number).sort((a, b) => a - b);
    const at = (ms: number) => new Date(ms).toISOString();
    const boundAt = at(bound);
    const describe = (which: string, ms: number) =>
      `${which} point ${expired[0]?.measurement} at ${at(ms)} dropped because it violates a Retention Policy Lower Bound at ${boundAt}`;
    const first = times[0] as number;
    const last = times[times.length - 1] as number;
    return partial(
      `dropped ${expired.length} points outside retention policy of duration ${retentionDuration(everySeconds)} - ${describe("oldest", first)}, ${describe("newest", last)}`,
      expired.length,
      " for database: 0123456789abcdef for retention policy: autogen",
    );
  }
  return { status: 204 };
}

/** InfluxDB 3: each line stands alone; the refused ones are listed, the others stored. */
function writeV3(
  body: string,
  database: FakeDatabase,
  fieldTypes: Map<string, ParsedType>,
  typeKey: TypeKey,
): WriteAnswer {
  const refused: { original_line: string; line_number: number; error_message: string }[] = [];
  for (const [index, parsed] of parseLines(body).entries()) {
    const refuse = (error_message: string) =>
      refused.push({ original_line: parsed.line, line_number: index + 1, error_message });
    // The parser's own words, as 3 gives them ("Could not parse entire line. ...", "No fields were provided").
    if ("error" in parsed) {
      refuse(`Could not parse entire line. ${parsed.error.message}`);
      continue;
    }
    const conflict = conflictOf(parsed.point, fieldTypes, typeKey);
    if (conflict !== undefined) {
      refuse(
        `invalid column type for column '${conflict.name}', expected iox::column_type::field::${conflict.known}, got iox::column_type::field::${conflict.type}`,
      );
      continue;
    }
    keepTypes(parsed.point, fieldTypes, typeKey);
    database.points.push(parsed.point);
  }
  if (refused.length === 0) return { status: 204 };
  return { status: 400, payload: { error: "partial write of line protocol occurred", data: refused } };
}

/** A v2 bucket's retention rule in seconds; undefined when it keeps everything. */
function retentionSeconds(rules: unknown): number | undefined {
  if (!Array.isArray(rules)) return undefined;
  const seconds = (rules[0] as { everySeconds?: number } | undefined)?.everySeconds;
  return seconds === undefined || seconds <= 0 ? undefined : seconds;
}

/** Go's duration text for whole hours, as 2.x prints a retention: `168h0m0s`. */
function retentionDuration(seconds: number | undefined): string {
  return `${Math.floor((seconds ?? 0) / 3600)}h0m0s`;
}
