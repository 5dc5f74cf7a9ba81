import { Agent, type IncomingMessage, request } from "node:http";
import { connect, type Socket } from "node:net";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { startHttpListener } from "../../../../local/http/http-listener.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

/** An app whose `/slow` answers only once `release` is called. */
function appWithSlowRoute() {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const app = new Hono();
  app.get("/slow", async (c) => {
    await released;
    return c.text("done");
  });
  return { app, release };
}

/** GET over `agent`, resolving with the answer (status, connection header) or the error's code. */
function get(url: string, agent: Agent): Promise<{ status?: number; connection?: string; error?: string }> {
  return new Promise((resolve) => {
    const req = request(url, { agent }, (response: IncomingMessage) => {
      response.resume();
      response.once("end", () =>
        resolve({ status: response.statusCode ?? 0, connection: String(response.headers.connection) }),
      );
    });
    req.once("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.end();
  });
}

const withinMs = <T>(work: Promise<T>, ms: number) =>
  Promise.race([
    work.then(() => "done"),
    new Promise((resolve) => setTimeout(() => resolve("still waiting"), ms)),
  ]);

/** A listener named `test` serving `app` on a free loopback port. */
const startOnLoopback = (app: Hono) =>
  startHttpListener({ name: "test", app, host: "127.0.0.1", port: 0, logger: recordingLogger() });

describe("startHttpListener at stop", () => {
  it("answers a request in flight with Connection: close, so a kept-alive client cannot hold the stop", async () => {
    const { app, release } = appWithSlowRoute();
    const listener = await startOnLoopback(app);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const answer = get(`${listener.url}/slow`, agent);
    await new Promise((resolve) => setTimeout(resolve, 50));

    const stopping = listener.stop();
    release();

    expect(await answer).toEqual({ status: 200, connection: "close" });
    expect(await withinMs(stopping, 1000)).toBe("done");
    agent.destroy();
  });

  it("gives up the requests still in flight when told to close its connections", async () => {
    const { app, release } = appWithSlowRoute();
    const listener = await startOnLoopback(app);
    const agent = new Agent({ keepAlive: false });
    const answer = get(`${listener.url}/slow`, agent);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const stopping = listener.stop();

    listener.closeConnections();

    expect(await answer).toEqual({ error: "ECONNRESET" });
    expect(await withinMs(stopping, 1000)).toBe("done");
    release();
  });
});

/** A connection to `port` that has opened and sent nothing, as a browser's speculative one. */
async function openConnection(port: number): Promise<{ socket: Socket; closed: Promise<void> }> {
  const socket = connect(port, "127.0.0.1");
  await new Promise((resolve) => socket.once("connect", resolve));
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  socket.on("error", () => undefined);
  return { socket, closed };
}

describe("startHttpListener at stop, with connections that have not sent a request", () => {
  it("closes a connection that has sent nothing, so the stop does not wait for it", async () => {
    const listener = await startOnLoopback(new Hono());
    const unspoken = await openConnection(listener.port);
    await new Promise((resolve) => setTimeout(resolve, 50));

    const stopping = listener.stop();

    expect(await withinMs(stopping, 1000)).toBe("done");
    expect(await withinMs(unspoken.closed, 1000)).toBe("done");
  });

  it("answers a request whose headers had started to arrive, then closes its connection", async () => {
    const app = new Hono();
    app.get("/", (c) => c.text("ok"));
    const listener = await startOnLoopback(app);
    const client = await openConnection(listener.port);
    let received = "";
    client.socket.setEncoding("utf8");
    client.socket.on("data", (chunk: string) => {
      received += chunk;
    });
    client.socket.write("GET / HTTP/1.1\r\n");
    await new Promise((resolve) => setTimeout(resolve, 50));

    const stopping = listener.stop();
    await new Promise((resolve) => setTimeout(resolve, 50));
    client.socket.write(`Host: 127.0.0.1:${listener.port}\r\n\r\n`);

    expect(await withinMs(client.closed, 1000)).toBe("done");
    expect(received).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(received.toLowerCase()).toContain("connection: close");
    expect(received.endsWith("ok")).toBe(true);
    expect(await withinMs(stopping, 1000)).toBe("done");
  });
});

describe("startHttpListener at start", () => {
  const start = async (host: string, allowedHosts: string[]) => {
    const logger = recordingLogger();
    const listener = await startHttpListener({
      name: "REST API",
      app: new Hono(),
      host,
      port: 0,
      logger,
      allowedHosts,
      hostsSetting: "restServer.allowedHosts",
    });
    await listener.stop();
    return { warnings: logger.at("warn").map((entry) => entry.message), port: listener.port };
  };

  it("warns that DNS names get 421 when it listens on all interfaces and answers no name", async () => {
    const { warnings, port } = await start("0.0.0.0", []);

    expect(warnings).toEqual([
      `REST API listens on 0.0.0.0 and answers no host name yet: requests that name this machine by a DNS name (the Host header, e.g. https://qlik-ops.corp.local:${port}) get 421; list the names clients use in restServer.allowedHosts`,
    ]);
  });

  it.each([
    ["0.0.0.0", ["qlik-ops.corp.local"]],
    ["127.0.0.1", []],
    ["localhost", []],
  ])("says nothing on %s with allowedHosts %j", async (host, allowedHosts) => {
    expect((await start(host, allowedHosts)).warnings).toEqual([]);
  });
});
