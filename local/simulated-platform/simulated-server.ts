/**
 * One simulated platform server: an HTTPS listener demanding a client certificate signed by the
 * given CA (no certificate or a stranger's fails the TLS handshake) that serves, with its own
 * values, the engine health check (`/engine/healthcheck`), the proxy's session lists
 * (`/qps/session`, `/qps/<prefix>/session`), the repository routes (`/qrs/...`) and the version
 * endpoint (`/v1/systeminfo`, which the platform serves on port 9032). It records
 * every call, can misbehave on demand on the health and session routes, and can be stopped on
 * its own (then it is unreachable).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import type { TLSSocket } from "node:tls";
import { pushBounded, type SimulatedCall } from "./call-log.ts";
import { createHealthSimulation } from "./health-simulation.ts";
import { answerLicenseRoute } from "./license-routes.ts";
import { createLicenseSimulation } from "./license-simulation.ts";
import {
  createRepositoryState,
  handleRepository,
  type RepositoryState,
  resetRepositoryState,
} from "./repository-routes.ts";
import { createSessionSimulation } from "./session-simulation.ts";

/** PEM material of the simulated servers: their certificate and key, and the CA clients must be signed by. */
export interface SimulatedTls {
  readonly cert: Buffer | string;
  readonly key: Buffer | string;
  readonly ca: Buffer | string;
}

/**
 * What the health and session routes do instead of answering: HTTP 500, answer after
 * `slowAnswerMs`, a truncated JSON body, or close the socket without answering.
 */
export type MonitorFault = "status500" | "slow" | "malformedJson" | "closeSocket";

export interface SimulatedServer {
  readonly index: number;
  readonly host: string;
  readonly port: number;
  /** `host:port`, as `serversToMonitor.servers[].host` and `userSessions.host` take it. */
  readonly address: string;
  /** Health and session calls (the latest, oldest first). Repository calls are in `repository.calls`. */
  readonly calls: SimulatedCall[];
  readonly repository: RepositoryState;
  /** Applies to the health and session routes until cleared. */
  fault: MonitorFault | undefined;
  /** How long a `slow` answer waits; 30 s unless a test sets it. */
  slowAnswerMs: number;
  /** Forgets calls and faults, restores the catalogue. */
  reset(): void;
  /** Closes the listener and its connections; the server is unreachable from then on. Idempotent. */
  stop(): Promise<void>;
}

export interface SimulatedServerOptions {
  readonly index: number;
  readonly tls: SimulatedTls;
  readonly host: string;
  /** 0 = an ephemeral port. */
  readonly port: number;
  readonly random: () => number;
  readonly now: () => number;
  /** Days from today (UTC) to the server licence's Valid To day (365 by default). */
  readonly licenseExpiresInDays?: number | undefined;
}

const SESSION_PATH = /^\/qps(\/[^/]+)?\/session$/;

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res
    .writeHead(status, {
      "Content-Type": typeof body === "string" ? "text/plain" : "application/json; charset=utf-8",
    })
    .end(text);
}

function recordCall(calls: SimulatedCall[], req: IncomingMessage, url: URL): void {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (name !== "host" && name !== "connection" && typeof value === "string") headers[name] = value;
  }
  const peer = (req.socket as TLSSocket).getPeerCertificate();
  pushBounded(calls, {
    method: req.method ?? "",
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers,
    clientCertCn: typeof peer.subject?.CN === "string" ? peer.subject.CN : undefined,
  });
}

/** Query parameter `Xrfkey` (any case) equal to the X-Qlik-Xrfkey header, as the proxy checks it. */
function xrfKeyMatches(req: IncomingMessage, url: URL): boolean {
  const header = req.headers["x-qlik-xrfkey"];
  const query = [...url.searchParams].find(([name]) => name.toLowerCase() === "xrfkey")?.[1];
  return typeof header === "string" && header !== "" && query === header;
}

export async function startSimulatedServer(options: SimulatedServerOptions): Promise<SimulatedServer> {
  const health = createHealthSimulation({ random: options.random, startedAt: options.now() });
  const sessions = createSessionSimulation(options.random);
  const pendingAnswers = new Set<NodeJS.Timeout>();

  function answerMonitor(req: IncomingMessage, res: ServerResponse, answer: () => unknown): void {
    switch (simulated.fault) {
      case "status500":
        send(res, 500, "Internal Server Error");
        return;
      case "malformedJson":
        res.writeHead(200, { "Content-Type": "application/json" }).end('{"version": "12.16');
        return;
      case "closeSocket":
        req.socket.destroy();
        return;
      case "slow": {
        const timer = setTimeout(() => {
          pendingAnswers.delete(timer);
          if (!res.destroyed) send(res, 200, answer());
        }, simulated.slowAnswerMs);
        pendingAnswers.add(timer);
        return;
      }
      case undefined:
        send(res, 200, answer());
    }
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? "/", "https://simulated.invalid");
    if (url.pathname.startsWith("/qrs/")) {
      handleRepository(simulated.repository, req, res, url);
      return;
    }
    if (url.pathname === "/v1/systeminfo") {
      recordCall(simulated.calls, req, url);
      if (!answerLicenseRoute(simulated.repository.licenses, req.method ?? "", url, res))
        send(res, 404, "Not found");
      return;
    }
    const sessionMatch = SESSION_PATH.exec(url.pathname);
    if (req.method !== "GET" || (url.pathname !== "/engine/healthcheck" && sessionMatch === null)) {
      send(res, 404, "Not found");
      return;
    }
    recordCall(simulated.calls, req, url);
    if (sessionMatch === null) {
      answerMonitor(req, res, () => health(simulated.repository.apps.map((app) => app.id)));
    } else if (!xrfKeyMatches(req, url)) {
      send(res, 400, "Xrfkey query parameter and X-Qlik-Xrfkey header missing or different");
    } else {
      answerMonitor(req, res, () => sessions(sessionMatch[1] ?? ""));
    }
  }

  const server: Server = createServer(
    {
      cert: options.tls.cert,
      key: options.tls.key,
      ca: options.tls.ca,
      requestCert: true,
      rejectUnauthorized: true,
    },
    (req, res) => {
      // Bodies (a task start's) are read and ignored, as the repository ignores them.
      req.resume();
      req.on("end", () => handle(req, res));
    },
  );
  // Longer than a polling interval, so that pollers reuse connections without racing the idle close.
  server.keepAliveTimeout = 65_000;
  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });

  let stopped: Promise<void> | undefined;
  const simulated: SimulatedServer = {
    index: options.index,
    host: options.host,
    port,
    address: `${options.host.includes(":") ? `[${options.host}]` : options.host}:${port}`,
    calls: [],
    repository: createRepositoryState(
      createLicenseSimulation({
        expiresInDays: options.licenseExpiresInDays ?? 365,
        now: options.now,
        random: options.random,
      }),
    ),
    fault: undefined,
    slowAnswerMs: 30_000,
    reset() {
      simulated.calls.length = 0;
      simulated.fault = undefined;
      resetRepositoryState(simulated.repository);
    },
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        for (const timer of pendingAnswers) clearTimeout(timer);
        pendingAnswers.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return stopped;
    },
  };
  return simulated;
}
