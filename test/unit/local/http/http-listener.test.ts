import { Agent, type IncomingMessage, request } from "node:http";
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

describe("startHttpListener at stop", () => {
  it("answers a request in flight with Connection: close, so a kept-alive client cannot hold the stop", async () => {
    const { app, release } = appWithSlowRoute();
    const listener = await startHttpListener({
      name: "test",
      app,
      host: "127.0.0.1",
      port: 0,
      logger: recordingLogger(),
    });
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
    const listener = await startHttpListener({
      name: "test",
      app,
      host: "127.0.0.1",
      port: 0,
      logger: recordingLogger(),
    });
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
