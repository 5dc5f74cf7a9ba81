/**
 * The PlatformMonitor adapter against simulated servers over mutual TLS: what goes on the wire
 * for health and session calls, and how failures come back as typed errors.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openCertificateFiles } from "../../../../../core/adapters/platform/certificate-files.ts";
import { createPlatformMonitor } from "../../../../../core/adapters/platform/platform-monitor.ts";
import {
  PlatformConnectionClosedError,
  PlatformResponseError,
  PlatformTimeoutError,
  PlatformUnreachableError,
} from "../../../../../core/platform/errors.ts";
import { InvalidVirtualProxyError } from "../../../../../core/platform/virtual-proxy.ts";
import type { PlatformMonitor } from "../../../../../core/ports.ts";
import { systemClock } from "../../../../../core/system-clock.ts";
import type { SimulatedServer } from "../../../../../local/simulated-platform/simulated-server.ts";
import { startTestPlatform, type TestPlatform } from "../../../../fixtures/platform/test-platform.ts";
import { recordingLogger } from "../../../../helpers/recording-logger.ts";

const TIMEOUT_MS = 300;

let sim: TestPlatform;
let monitor: PlatformMonitor;
let first: SimulatedServer;
let second: SimulatedServer;

beforeAll(async () => {
  sim = await startTestPlatform({ servers: 3 });
  [first, second] = sim.servers as [SimulatedServer, SimulatedServer];
  monitor = createPlatformMonitor({
    certificates: await openCertificateFiles({
      files: sim.certificates,
      clock: systemClock,
      logger: recordingLogger(),
    }),
    rejectUnauthorized: true,
    timeoutMs: TIMEOUT_MS,
    clock: systemClock,
  });
});

afterAll(async () => {
  monitor?.close();
  await sim?.stop();
});

beforeEach(() => sim.reset());

describe("engine health", () => {
  it("reads the health check into EngineHealth", async () => {
    // Act
    const health = await monitor.engineHealth({ host: first.address, headers: {} });

    // Assess
    expect(health.version).toBe("12.1657.0");
    expect(health.started).toMatch(/^\d{8}T\d{6}\.\d{3}[+-]\d{4}$/);
    expect(health.mem.committed).toBeGreaterThan(0);
    expect(health.apps.in_memory_docs.some((id) => id.startsWith("SessionApp_"))).toBe(true);
    expect(health).not.toHaveProperty("mem.totalPhysical");
  });

  it("sends the no-cache and JSON headers plus the server's own headers, with the client certificate", async () => {
    // Act
    await monitor.engineHealth({
      host: second.address,
      headers: { "X-Tenant": "emea", Authorization: "Bearer t" },
    });

    // Assess
    expect(first.calls).toEqual([]);
    expect(second.calls).toHaveLength(1);
    expect(second.calls[0]).toMatchObject({
      method: "GET",
      path: "/engine/healthcheck",
      query: {},
      clientCertCn: "QlikClient",
      headers: {
        "cache-control": "no-cache",
        "content-type": "application/json",
        "x-tenant": "emea",
        authorization: "Bearer t",
      },
    });
  });

  it("answers each server with its own values", async () => {
    // Act
    const [a, b] = await Promise.all(
      [first, second].map((server) => monitor.engineHealth({ host: server.address, headers: {} })),
    );

    // Assess
    expect(a?.mem.committed).not.toBe(b?.mem.committed);
  });
});

describe("proxy sessions", () => {
  it("calls the root proxy with the xrfkey pair and without the server's headers", async () => {
    // Act
    const list = await monitor.proxySessions(first.address, "/");

    // Assess
    expect(list.sessions.length).toBe((list.raw as unknown[]).length);
    const call = first.calls[0];
    expect(call?.path).toBe("/qps/session");
    expect(call?.query.Xrfkey).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(call?.headers["x-qlik-xrfkey"]).toBe(call?.query.Xrfkey);
    expect(call?.headers).toMatchObject({
      xvirtualproxy: "",
      "cache-control": "no-cache",
      "content-type": "application/json",
    });
    expect(Object.keys(call?.headers ?? {})).not.toContain("x-tenant");
  });

  it.each(["/hdr", "hdr"])("calls the virtual proxy %s under /qps/hdr", async (virtualProxy) => {
    // Act
    const list = await monitor.proxySessions(first.address, virtualProxy);

    // Assess
    expect(list.sessions.every((s) => s.userDirectory !== "" && s.sessionId !== "")).toBe(true);
    expect(first.calls[0]?.path).toBe("/qps/hdr/session");
    expect(first.calls[0]?.headers.xvirtualproxy).toBe("/hdr");
  });

  it("refuses a virtual proxy that is not one path segment, without calling", async () => {
    await expect(monitor.proxySessions(first.address, "/a/../../qrs")).rejects.toThrow(
      InvalidVirtualProxyError,
    );
    expect(first.calls).toEqual([]);
  });
});

describe("failures", () => {
  it("rejects with PlatformUnreachableError for a stopped server", async () => {
    // Prepare
    const third = sim.servers[2] as SimulatedServer;
    await third.stop();

    // Act / Assess
    await expect(monitor.engineHealth({ host: third.address, headers: {} })).rejects.toThrow(
      PlatformUnreachableError,
    );
    await expect(monitor.proxySessions(third.address, "/")).rejects.toThrow(
      /proxy at 127\.0\.0\.1:\d+ unreachable/,
    );
  });

  it("rejects a 500 with PlatformResponseError carrying the status", async () => {
    // Prepare
    first.fault = "status500";

    // Act
    const failure = await monitor.engineHealth({ host: first.address, headers: {} }).catch((error) => error);

    // Assess
    expect(failure).toBeInstanceOf(PlatformResponseError);
    expect(failure.status).toBe(500);
    expect(failure.message).toBe(
      `engine health check at ${first.address} answered GET /engine/healthcheck with HTTP 500: Internal Server Error`,
    );
  });

  it("gives up on a slow answer with PlatformTimeoutError after the timeout", async () => {
    // Prepare
    first.fault = "slow";
    first.slowAnswerMs = 5_000;
    const started = Date.now();

    // Act
    const failure = await monitor.proxySessions(first.address, "/hdr").catch((error) => error);

    // Assess
    expect(failure).toBeInstanceOf(PlatformTimeoutError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 500);
  });

  it("lets a call in flight outlast the idle-connection timeout, and reconnects after it", async () => {
    // Prepare: idle connections close after 100 ms; the answer takes 400 ms.
    const quickToClose = createPlatformMonitor({
      certificates: await openCertificateFiles({
        files: sim.certificates,
        clock: systemClock,
        logger: recordingLogger(),
      }),
      rejectUnauthorized: true,
      timeoutMs: 2000,
      idleSocketMs: 100,
      clock: systemClock,
    });
    first.fault = "slow";
    first.slowAnswerMs = 400;

    try {
      // Act
      const slow = await quickToClose.engineHealth({ host: first.address, headers: {} });
      first.fault = undefined;
      await new Promise((resolve) => setTimeout(resolve, 300));
      const later = await quickToClose.engineHealth({ host: first.address, headers: {} });

      // Assess
      expect(slow.mem.committed).toBeGreaterThan(0);
      expect(later.mem.committed).toBeGreaterThan(0);
    } finally {
      quickToClose.close();
    }
  });

  it.each([
    ["engine health", (host: string) => monitor.engineHealth({ host, headers: {} })],
    ["proxy sessions", (host: string) => monitor.proxySessions(host, "/")],
  ])("rejects a malformed %s body with PlatformResponseError", async (_what, call) => {
    // Prepare
    first.fault = "malformedJson";

    // Act / Assess
    await expect(call(first.address)).rejects.toThrow(PlatformResponseError);
    await expect(call(first.address)).rejects.toThrow(/with malformed JSON$/);
  });

  it("rejects a closed socket with PlatformConnectionClosedError", async () => {
    // Prepare
    first.fault = "closeSocket";

    // Act / Assess
    await expect(monitor.engineHealth({ host: first.address, headers: {} })).rejects.toThrow(
      PlatformConnectionClosedError,
    );
  });

  it("keeps working once a fault is cleared (connections are reused or reopened)", async () => {
    // Prepare
    first.fault = "closeSocket";
    await monitor.engineHealth({ host: first.address, headers: {} }).catch(() => undefined);
    first.fault = undefined;

    // Act / Assess
    await expect(monitor.engineHealth({ host: first.address, headers: {} })).resolves.toHaveProperty(
      "version",
    );
  });
});
