/**
 * The guards every local listener runs behind (local/http/guarded-server.ts), on both kinds of
 * listener (a Hono app on @hono/node-server, and the ingest API's own node:http front door),
 * with real sockets on loopback and the time limits shortened: a client whose headers or body
 * dribble in is cut with 408 just after its limit, a request whose answer takes long is not, a
 * connection over the cap is closed at once, and a request naming a Host the listener does not
 * answer gets 421. Every refusal is counted and logged once.
 */
import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import type { HttpRefusalReason } from "../../../../core/monitoring/http-refused-metric.ts";
import type { IngestHandler } from "../../../../functions/audit-ingest/ingest-handler.ts";
import type { TimeLimits } from "../../../../local/http/guarded-server.ts";
import { type HttpListener, startHttpListener } from "../../../../local/http/http-listener.ts";
import { startIngestListener } from "../../../../local/http/ingest-listener.ts";
import { bodyOf, openRaw, rawRequest, statusOf } from "../../../helpers/raw-connection.ts";
import { type RecordingLogger, recordingLogger } from "../../../helpers/recording-logger.ts";

const LIMITS: Partial<TimeLimits> = {
  headersTimeoutMs: 600,
  requestTimeoutMs: 1500,
  keepAliveTimeoutMs: 500,
  checkIntervalMs: 100,
};

/** How long an answer of the test's routes takes: longer than every limit above. */
const SLOW_ANSWER_MS = 2000;

interface Started {
  listener: HttpListener;
  logger: RecordingLogger;
  refused: HttpRefusalReason[];
}

interface StartOptions {
  maxConnections?: number;
  allowedHosts?: string[];
  host?: string;
}

/** A Hono app: `/` answers at once, `/slow` after SLOW_ANSWER_MS, POST `/echo` its body. */
function honoApp(): Hono {
  const app = new Hono();
  app.get("/", (c) => c.text("ok"));
  app.get("/slow", async (c) => {
    await new Promise((resolve) => setTimeout(resolve, SLOW_ANSWER_MS));
    return c.text("late but answered");
  });
  app.post("/echo", async (c) => c.text(await c.req.text()));
  // A body cut off by the request limit: the client is gone, nothing to log in a test.
  app.onError((_error, c) => c.text("body incomplete", 400));
  return app;
}

/** An ingest handler with the same three paths. */
const ingestHandler: IngestHandler = async (request) => {
  if (request.path === "/slow") await new Promise((resolve) => setTimeout(resolve, SLOW_ANSWER_MS));
  const body = request.method === "POST" ? ((await request.readText(1 << 20)) ?? "") : "ok";
  return { status: 200, headers: { "content-type": "text/plain" }, body };
};

const running: HttpListener[] = [];
afterEach(async () => {
  for (const listener of running.splice(0)) {
    listener.closeConnections();
    await listener.stop();
  }
});

const KINDS = {
  "a Hono app": (
    options: StartOptions & { logger: RecordingLogger; count: (r: HttpRefusalReason) => void },
  ) =>
    startHttpListener({
      name: "Test API",
      app: honoApp(),
      host: options.host ?? "127.0.0.1",
      port: 0,
      logger: options.logger,
      timeLimits: LIMITS,
      maxConnections: options.maxConnections,
      connectionsSetting: "test.maxConnections",
      allowedHosts: options.allowedHosts,
      hostsSetting: "test.allowedHosts",
      countRefused: options.count,
    }),
  "the ingest front door": (
    options: StartOptions & { logger: RecordingLogger; count: (r: HttpRefusalReason) => void },
  ) =>
    startIngestListener({
      name: "Test API",
      handler: ingestHandler,
      host: options.host ?? "127.0.0.1",
      port: 0,
      logger: options.logger,
      timeLimits: LIMITS,
      maxConnections: options.maxConnections,
      connectionsSetting: "test.maxConnections",
      allowedHosts: options.allowedHosts,
      hostsSetting: "test.allowedHosts",
      countRefused: options.count,
    }),
} as const;

type Kind = keyof typeof KINDS;

async function start(kind: Kind, options: StartOptions = {}): Promise<Started> {
  const logger = recordingLogger();
  const refused: HttpRefusalReason[] = [];
  const listener = await KINDS[kind]({ ...options, logger, count: (reason) => refused.push(reason) });
  running.push(listener);
  return { listener, logger, refused };
}

const warnings = (logger: RecordingLogger) => logger.at("warn").map((entry) => entry.message);

describe.each(Object.keys(KINDS) as Kind[])("the time limits of %s", (kind) => {
  it("cuts a client whose headers dribble in with 408 just after the headers limit, counted and logged once", async () => {
    const { listener, logger, refused } = await start(kind);
    const client = await openRaw(listener.port);

    client.dribble("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".padEnd(200, "a"), 50);
    const closedAfterMs = await client.closed;

    expect(closedAfterMs).toBeGreaterThanOrEqual(550);
    expect(closedAfterMs).toBeLessThan(1200);
    expect(statusOf(client.received())).toBe(408);
    expect(JSON.parse(bodyOf(client.received()))).toEqual({
      statusCode: 408,
      error: "Request Timeout",
      message: "The request did not arrive in time: headers within 0.6 s, the whole request within 1.5 s",
    });
    expect(refused).toEqual(["timeout"]);
    expect(warnings(logger)).toEqual([
      "Test API: closed connections whose request did not arrive in time (408): the headers must arrive within 0.6 s and the whole request within 1.5 s",
    ]);
  });

  it("cuts a client whose body dribbles in with 408 just after the request limit", async () => {
    const { listener, refused } = await start(kind);
    const client = await openRaw(listener.port);

    client.socket.write("POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 200\r\n\r\n");
    client.dribble("x".repeat(200), 50);
    const closedAfterMs = await client.closed;

    expect(closedAfterMs).toBeGreaterThanOrEqual(1400);
    expect(closedAfterMs).toBeLessThan(2200);
    expect(statusOf(client.received())).toBe(408);
    expect(refused).toEqual(["timeout"]);
  });

  it("does not cut a request that arrived in time, however long its answer takes", async () => {
    const { listener, refused } = await start(kind);
    const client = await openRaw(listener.port);

    client.socket.write(rawRequest("GET", "/slow", "127.0.0.1"));
    await client.closed;

    expect(statusOf(client.received())).toBe(200);
    expect(refused).toEqual([]);
  });

  it("closes a connection that never sent a byte at the headers limit, without an answer or a count", async () => {
    const { listener, logger, refused } = await start(kind);
    const client = await openRaw(listener.port);

    const closedAfterMs = await client.closed;

    expect(closedAfterMs).toBeLessThan(1200);
    expect(client.received()).toBe("");
    expect(refused).toEqual([]);
    expect(warnings(logger)).toEqual([]);
  });

  it("closes a connection over its cap at once, counted and logged with the setting, and takes one again once one closed", async () => {
    const { listener, logger, refused } = await start(kind, { maxConnections: 2 });
    const first = await openRaw(listener.port);
    const second = await openRaw(listener.port);

    const third = await openRaw(listener.port);
    const thirdClosedAfterMs = await third.closed;
    second.socket.destroy();
    await second.closed;
    const fourth = await openRaw(listener.port);
    fourth.socket.write(rawRequest("GET", "/", "127.0.0.1"));
    await fourth.closed;

    expect(thirdClosedAfterMs).toBeLessThan(300);
    expect(third.received()).toBe("");
    expect(statusOf(fourth.received())).toBe(200);
    expect(first.isClosed()).toBe(false);
    expect(refused).toEqual(["connections"]);
    expect(warnings(logger)).toEqual([
      "Test API: refused connections over its cap of 2 open connections; raise test.maxConnections if that many clients are expected",
    ]);
    first.socket.destroy();
  });
});

describe.each(Object.keys(KINDS) as Kind[])("the Host check of %s", (kind) => {
  it.each([
    "127.0.0.1",
    "127.0.0.1:PORT",
    "localhost",
    "LOCALHOST:PORT",
    "[::1]:PORT",
    "10.1.2.3:8181",
    "qlik-ops.corp.local:8181",
    "QLIK-OPS.corp.local.",
  ])("answers Host: %s", async (host) => {
    const { listener, refused } = await start(kind, { allowedHosts: ["qlik-ops.corp.local"] });
    const client = await openRaw(listener.port);

    client.socket.write(rawRequest("GET", "/", host.replace("PORT", String(listener.port))));
    await client.closed;

    expect(statusOf(client.received())).toBe(200);
    expect(refused).toEqual([]);
  });

  it.each(["attacker.example", "attacker.example:PORT", "127.0.0.1.nip.io", "localhost.attacker.example"])(
    "refuses Host: %s with 421, saying which setting takes the name",
    async (host) => {
      const { listener, refused } = await start(kind, { allowedHosts: ["qlik-ops.corp.local"] });
      const client = await openRaw(listener.port);
      const sent = host.replace("PORT", String(listener.port));

      client.socket.write(rawRequest("GET", "/", sent));
      await client.closed;

      expect(statusOf(client.received())).toBe(421);
      expect(client.received()).toMatch(/\r\ncontent-type: application\/json\r\n/i);
      expect(bodyOf(client.received())).toContain(
        `Host ${sent} is not a name this listener answers; if clients reach it by this name, add ${sent.split(":")[0]} to test.allowedHosts`,
      );
      expect(refused).toEqual(["host"]);
    },
  );

  it("answers the name it is configured to listen on", async () => {
    const { listener } = await start(kind, { host: "localhost" });
    const client = await openRaw(listener.port);

    client.socket.write(rawRequest("GET", "/", `localhost:${listener.port}`));
    await client.closed;

    expect(statusOf(client.received())).toBe(200);
  });

  it("passes a request without Host on (HTTP/1.0: browsers always send one)", async () => {
    const { listener, refused } = await start(kind);
    const client = await openRaw(listener.port);

    client.socket.write("GET / HTTP/1.0\r\n\r\n");
    await client.closed;

    expect(client.received()).toMatch(/^HTTP\/1\.\d \d{3} /);
    expect(client.received()).not.toMatch(/^HTTP\/1\.\d 421 /);
    expect(refused).toEqual([]);
  });

  it("reads a refused request's body before the 421, so a client still sending reads it, and closes", async () => {
    const { listener } = await start(kind);
    const client = await openRaw(listener.port);
    const body = JSON.stringify({ pad: "x".repeat(300_000) });

    client.socket.write(
      `POST /echo HTTP/1.1\r\nHost: attacker.example\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    client.socket.write(body);
    await client.closed;

    expect(statusOf(client.received())).toBe(421);
    expect(client.received()).toMatch(/\r\nconnection: close\r\n/i);
  });

  it("logs the refused name at WARN once a minute with the count, naming where to add it", async () => {
    const { listener, logger, refused } = await start(kind);

    for (let i = 0; i < 3; i++) {
      const client = await openRaw(listener.port);
      client.socket.write(rawRequest("GET", "/", "rebound.attacker.example"));
      await client.closed;
    }

    expect(refused).toEqual(["host", "host", "host"]);
    expect(logger.at("warn")).toEqual([
      expect.objectContaining({
        message:
          "Test API: requests naming a Host this listener does not answer are refused with 421 (a guard against DNS rebinding); if clients reach it by this name, add rebound.attacker.example to test.allowedHosts",
        fields: { host: "rebound.attacker.example", ip: "127.0.0.1", refusedRequests: 1 },
      }),
    ]);
  });
});

describe("the Host refusal of the ingest front door", () => {
  it("is in the ingest API's own answer shape", async () => {
    const { listener } = await start("the ingest front door");
    const client = await openRaw(listener.port);

    client.socket.write(rawRequest("POST", "/api/v1/audit-event", "attacker.example", "{}"));
    await client.closed;

    expect(statusOf(client.received())).toBe(421);
    expect(JSON.parse(bodyOf(client.received()))).toEqual({
      status: "error",
      receivedAt: expect.any(String),
      outcome: "dropped",
      reason:
        "Host attacker.example is not a name this listener answers; if clients reach it by this name, add attacker.example to test.allowedHosts",
    });
  });
});
