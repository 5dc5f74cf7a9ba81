/**
 * The container health check on loopback: 200 while every probed listener is up and the event
 * loop responds, 503 with the reason otherwise; the listener probes against real sockets.
 */
import { createSocket } from "node:dgram";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { systemClock } from "../../../../core/system-clock.ts";
import { type ContainerHealth, startContainerHealth } from "../../../../local/agent/container-health.ts";
import { tcpProbe, udpProbe } from "../../../../local/agent/listener-probes.ts";
import { ListenError } from "../../../../local/http/http-listener.ts";
import { freePort } from "../../../helpers/free-port.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function httpServer(): Promise<{ server: Server; port: number }> {
  const server = createServer((_req, res) => res.end("ok"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { server, port: (server.address() as AddressInfo).port };
}

async function health(
  probes: Parameters<typeof startContainerHealth>[0]["probes"],
): Promise<ContainerHealth> {
  const started = await startContainerHealth({
    port: 0,
    probes,
    clock: systemClock,
    logger: recordingLogger(),
  });
  cleanups.push(() => started.stop());
  return started;
}

const get = async (port: number, path = "/health") => {
  const response = await fetch(`http://127.0.0.1:${port}${path}`);
  return {
    status: response.status,
    body: (await response.json()) as { statusCode: number; status?: string; reason?: string },
  };
};

describe("container health check", () => {
  it("answers 200 {statusCode: 200, status: ok} while every listener is up", async () => {
    const { port } = await httpServer();
    const udp = createSocket("udp4");
    await new Promise<void>((resolve) => udp.bind(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise((resolve) => udp.close(() => resolve())));
    const checked = await health([
      tcpProbe("restServer", "127.0.0.1", port),
      udpProbe("userEvents", "127.0.0.1", udp.address().port),
    ]);

    expect(await get(checked.port)).toEqual({ status: 200, body: { statusCode: 200, status: "ok" } });
  });

  it("answers 503 naming a TCP listener that is down", async () => {
    const deadPort = await freePort();
    const checked = await health([tcpProbe("auditEvents", "127.0.0.1", deadPort)]);
    const { status, body } = await get(checked.port);
    expect(status).toBe(503);
    expect(body).toMatchObject({ statusCode: 503, status: "ko" });
    expect(body.reason).toContain(`auditEvents (127.0.0.1:${deadPort}) is down`);
  });

  it("answers 503 naming a UDP socket that is not bound", async () => {
    const deadPort = await freePort();
    const checked = await health([udpProbe("logEvents", "127.0.0.1", deadPort)]);
    const { status, body } = await get(checked.port);
    expect(status).toBe(503);
    expect(body.reason).toBe(`logEvents (127.0.0.1:${deadPort}) is not bound`);
  });

  it("answers 503 after the event loop was blocked for more than 1 s", async () => {
    const checked = await health([]);
    expect((await get(checked.port)).status).toBe(200);
    const until = Date.now() + 1300;
    while (Date.now() < until) {
      // Busy: the event loop cannot run anything meanwhile.
    }
    const { status, body } = await get(checked.port);
    expect(status).toBe(503);
    expect(body.reason).toMatch(/^event loop blocked/);
  });

  it("answers 404 for other paths and listens on 127.0.0.1 only", async () => {
    const checked = await health([]);
    expect((await get(checked.port, "/other")).status).toBe(404);
    const address = await fetch(`http://127.0.0.2:${checked.port}/health`).then(
      () => "answered",
      () => "refused",
    );
    expect(address).toBe("refused");
  });

  it("fails the start when its port is taken", async () => {
    const { port } = await httpServer();
    await expect(
      startContainerHealth({ port, probes: [], clock: systemClock, logger: recordingLogger() }),
    ).rejects.toBeInstanceOf(ListenError);
  });
});
