import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AcceptedEvent } from "../../../../core/audit/accepted-event.ts";
import { parseConfig } from "../../../../core/config/index.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { createLocalIngest } from "../../../../local/audit/local-ingest.ts";
import type { HttpListener } from "../../../../local/http/http-listener.ts";
import { startIngestListener } from "../../../../local/http/ingest-listener.ts";
import { validEnvelope } from "../../../helpers/audit-envelopes.ts";
import { until } from "../../../helpers/eventually.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

let listener: HttpListener;
const logger = recordingLogger();

function parseConfigOrThrow(raw: unknown) {
  const result = parseConfig(raw, {});
  if (!result.ok) throw new Error(result.problems.map((p) => `${p.path}: ${p.message}`).join("\n"));
  return result;
}
let base: string;
let port: number;
const handled: AcceptedEvent[] = [];

/** A raw HTTP/1.1 request, so duplicate header lines and chunked bodies reach the server as sent. */
function rawRequest(options: {
  method: string;
  path: string;
  headers: Array<[string, string]>;
  chunks?: string[];
}): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: "127.0.0.1", port, method: options.method, path: options.path },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on("error", reject);
    for (const [name, value] of options.headers) req.appendHeader(name, value);
    for (const chunk of options.chunks ?? []) req.write(chunk);
    req.end();
  });
}

beforeAll(async () => {
  const { config } = parseConfigOrThrow({
    Service: {
      auditEvents: { enable: true, apiToken: "tok", maxBodyBytes: 2048, rateLimit: { maxPerMinute: 1000 } },
    },
  });
  const { handler } = createLocalIngest({
    settings: config.auditEvents,
    handler: async (event) => void handled.push(event),
    logger,
    clock: systemClock,
  });
  listener = await startIngestListener({
    name: "Audit ingest API",
    handler,
    host: "127.0.0.1",
    port: 0,
    logger,
  });
  port = listener.port;
  base = listener.url;
});

afterAll(async () => {
  await listener.stop();
});

const headers = {
  "content-type": "application/json",
  authorization: "Bearer tok",
  "x-audit-client-version": "0.3.0",
};

describe("ingest API on the local node:http listener", () => {
  it("accepts a valid event with 202 and records the socket peer as client IP", async () => {
    const response = await fetch(`${base}/api/v1/audit-event`, {
      method: "POST",
      headers,
      body: JSON.stringify(validEnvelope()),
    });

    expect(response.status).toBe(202);
    expect(response.headers.get("x-ratelimit-limit")).toBe("1000");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(handled.at(-1)?.clientIp).toBe("127.0.0.1");
  });

  it("answers 401 without the token and 400 for malformed JSON", async () => {
    const noToken = await fetch(`${base}/api/v1/audit-event`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    const malformed = await fetch(`${base}/api/v1/audit-event`, { method: "POST", headers, body: "{oops" });

    expect(noToken.status).toBe(401);
    expect(malformed.status).toBe(400);
  });

  it("refuses a chunked body over maxBodyBytes with 413", async () => {
    const response = await rawRequest({
      method: "POST",
      path: "/api/v1/audit-event",
      headers: [...Object.entries(headers), ["transfer-encoding", "chunked"]],
      chunks: Array.from({ length: 10 }, () => " ".repeat(500)),
    });

    expect(response.status).toBe(413);
  });

  /** A valid event whose header lines, repeated ones included, are sent exactly as given. */
  const postWithLines = (lines: Array<[string, string]>) =>
    rawRequest({
      method: "POST",
      path: "/api/v1/audit-event",
      headers: [["content-type", "application/json"], ...lines],
      chunks: [JSON.stringify(validEnvelope())],
    });

  it("uses the first of duplicated version header lines", async () => {
    const response = await postWithLines([
      ["authorization", "Bearer tok"],
      ["x-audit-client-version", "0.2.0"],
      ["x-audit-client-version", "0.3.0"],
    ]);

    expect(response.status).toBe(422);
    expect(JSON.parse(response.body).details.auditClientVersion).toBe("0.2.0");
  });

  it("refuses a declared length over maxBodyBytes with 413 before reading it, and closes the connection", async () => {
    const response = await rawRequest({
      method: "POST",
      path: "/api/v1/audit-event",
      headers: [...Object.entries(headers), ["content-length", "1000000"]],
      chunks: ["{"],
    });

    expect(response.status).toBe(413);
    expect(response.headers.connection).toBe("close");
    expect(JSON.parse(response.body)).toMatchObject({ status: "error", reason: "Request body too large" });
  });

  it("keeps the connection open after an answer to a fully read request", async () => {
    const response = await rawRequest({
      method: "POST",
      path: "/api/v1/audit-event",
      headers: Object.entries(headers),
      chunks: ["{oops"],
    });

    expect(response.status).toBe(400);
    expect(response.headers.connection).toBe("keep-alive");
  });

  it("routes on the path without its query, in origin and absolute form", async () => {
    const withQuery = await rawRequest({
      method: "GET",
      path: "/api/v1/test-connection?x=1",
      headers: [["authorization", "Bearer tok"]],
    });
    const absolute = await rawRequest({
      method: "GET",
      path: `http://127.0.0.1:${port}/api/v1/test-connection`,
      headers: [["authorization", "Bearer tok"]],
    });

    expect([withQuery.status, absolute.status]).toEqual([200, 200]);
  });

  it("answers HEAD like GET, without a body", async () => {
    const response = await rawRequest({
      method: "HEAD",
      path: "/api/v1/test-connection",
      headers: [["authorization", "Bearer tok"]],
    });

    expect(response.status).toBe(200);
    expect(response.body).toBe("");
    expect(Number(response.headers["content-length"])).toBeGreaterThan(0);
  });

  it("joins repeated Authorization lines as Fetch does, so a doubled token is refused", async () => {
    const response = await postWithLines([
      ["authorization", "Bearer tok"],
      ["authorization", "Bearer tok"],
      ["x-audit-client-version", "0.3.0"],
    ]);

    expect(response.status).toBe(401);
  });

  it("says at DEBUG, not as an unexpected error, that a client went away before its body arrived", async () => {
    const said = "client closed the connection before its request body arrived";
    const socket = connect(port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));

    socket.write(
      "POST /api/v1/audit-event HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer tok\r\n" +
        "Content-Type: application/json\r\nX-Audit-Client-Version: 0.3.0\r\nContent-Length: 100\r\n\r\n{",
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    await until(() => logger.at("debug").some((entry) => entry.message === said), 2000, 10);

    expect(logger.at("error")).toEqual([]);
  });

  it("answers test-connection with 200", async () => {
    const response = await fetch(`${base}/api/v1/test-connection`, {
      headers: { authorization: "Bearer tok" },
    });

    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: "ok" });
  });
});
