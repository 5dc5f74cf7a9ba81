/**
 * The node:http server under every local listener (ingest API, REST API, config UI and status
 * page, scrape endpoint, container health check), with the guards they all need before any route
 * runs:
 *
 * - **Time limits.** The headers must arrive within 10 s and the whole request within 30 s;
 *   otherwise the client gets 408 and its connection is closed. Node's own defaults (60 s and
 *   300 s) let a client that sends a byte now and then hold a connection, and a handler waiting
 *   for its body, for five minutes. They bound receiving a request, not the work on it: a reload
 *   or an app dump may take as long as it takes once its request has arrived. 30 s carries a 1 MiB
 *   body (the default `maxBodyBytes`) over a link of 35 KB/s, slower than any client of these APIs.
 *   Node checks the limits once a second here (every 30 s by default), so a slow client is cut
 *   within a second of its limit. A kept-alive connection closes after 5 s without a request.
 *   These are fixed: no client needs more, and a setting nobody should change is one to get wrong.
 * - **A connection cap** (`maxConnections`): a connection beyond it is closed at once, before a
 *   byte is read, so a flood of idle connections cannot exhaust the process's sockets or memory.
 * - **Host check** (host-check.ts): a request naming a `Host` the listener does not answer gets
 *   421 with a JSON body saying which setting takes the name; its body is read out first (bounded,
 *   discard-unread.ts) so the client reads the answer, and its connection is closed.
 *
 * - **HTTPS** when the listener has a certificate (`secure`): the same guards over TLS, 1.2 at
 *   least, and the handshake within the headers limit. A handshake a client fails on purpose (it
 *   offers only TLS 1.0 or 1.1, speaks plain HTTP to the port, or refuses the certificate with an
 *   alert) is counted and logged with what to change; a client that goes away during the
 *   handshake (a probe that only checks the port opens) is not.
 *
 * - **A lingering close** (lingering-close.ts): a connection closed after an answer whose request
 *   body was not read to its end is half-closed first, so the client reads the answer rather
 *   than a reset.
 *
 * Every refusal is counted and logged, throttled (listener-refusals.ts). A connection that closes
 * at the headers limit without having sent a byte (a browser's speculative connection) requested
 * nothing: it is closed without an answer and not counted; so is one that did not complete its
 * TLS handshake in that time.
 */
import { createServer, type RequestListener, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { Duplex } from "node:stream";
import type { SecureContextOptions } from "node:tls";
import type { HttpRefusalReason } from "../../core/monitoring/index.ts";
import type { Logger } from "../../core/ports.ts";
import { securityHeaderRecord } from "../../functions/http/security-headers.ts";
import { discardUnread } from "./discard-unread.ts";
import { createHostCheck, hostNameOf } from "./host-check.ts";
import { closeLingeringWhenUnread } from "./lingering-close.ts";
import { createListenerRefusals, shownHost } from "./listener-refusals.ts";

export interface TimeLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** How often node:http checks the first two: a slow client is cut at most this much after its limit. */
  checkIntervalMs: number;
}

export const TIME_LIMITS: TimeLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  checkIntervalMs: 1_000,
};

/** The cap of a listener that has no setting for it. */
export const DEFAULT_MAX_CONNECTIONS = 100;

export interface GuardOptions {
  /** The listener as the log names it, e.g. `REST API`. */
  name: string;
  /** The configured host: a name is answered in `Host` as well (host-check.ts). */
  host: string;
  logger: Logger;
  /** Names the listener answers besides loopback names, IP addresses and its host. */
  allowedHosts?: readonly string[] | undefined;
  /** The setting that holds them, named in the 421 and the WARN (e.g. `restServer.allowedHosts`). */
  hostsSetting?: string | undefined;
  /** Open connections at most (DEFAULT_MAX_CONNECTIONS when absent). */
  maxConnections?: number | undefined;
  /** The setting of the cap, named in the WARN, when operators can change it. */
  connectionsSetting?: string | undefined;
  /** TIME_LIMITS unless given (tests shorten them). */
  timeLimits?: Partial<TimeLimits> | undefined;
  /** Counts each refusal (`steward_http_refused_total`); absent: logged only. */
  countRefused?: ((reason: HttpRefusalReason) => void) | undefined;
  /** Writes the 421 in the listener's own answer shape; `{statusCode, error, message}` otherwise. */
  writeMisdirected?: ((response: ServerResponse, message: string) => void) | undefined;
}

export interface GuardedServerOptions extends GuardOptions {
  /** The certificate's TLS options: the server speaks HTTPS. */
  secure?: SecureContextOptions | undefined;
}

/** The REST API's error shape, which the config UI and the scrape endpoint share for this answer. */
function writeMisdirectedJson(response: ServerResponse, message: string): void {
  const body = JSON.stringify({ statusCode: 421, error: "Misdirected Request", message });
  const headers = securityHeaderRecord();
  headers["content-type"] = "application/json";
  headers["content-length"] = String(Buffer.byteLength(body));
  response.writeHead(421, headers);
  response.end(body);
}

/** A complete answer written straight to a socket (node:http's own, for the errors it detects). */
function rawAnswer(status: number, reason: string, body?: string): Buffer {
  const head = [`HTTP/1.1 ${status} ${reason}`, "Connection: close"];
  if (body !== undefined) {
    for (const [name, value] of Object.entries(securityHeaderRecord())) head.push(`${name}: ${value}`);
    head.push("Content-Type: application/json", `Content-Length: ${Buffer.byteLength(body)}`);
  }
  return Buffer.from(`${head.join("\r\n")}\r\n\r\n${body ?? ""}`, "utf8");
}

/** What node:http answers a client error it detects itself, as it does without a listener. */
const NODE_ANSWERS: Readonly<Record<string, Buffer>> = {
  HPE_HEADER_OVERFLOW: rawAnswer(431, "Request Header Fields Too Large"),
  HPE_CHUNK_EXTENSIONS_OVERFLOW: rawAnswer(413, "Payload Too Large"),
};
const BAD_REQUEST = rawAnswer(400, "Bad Request");

type ClientSocket = Duplex & {
  bytesRead?: number;
  remoteAddress?: string;
  _httpMessage?: ServerResponse | null;
};

/** Writes `answer` unless the request in flight already has its answer's head on the wire. */
function answerOnce(socket: ClientSocket, answer: Buffer): void {
  if (socket.writable && socket._httpMessage?.headersSent !== true) socket.write(answer);
}

/** An error of the TLS handshake: OpenSSL's (`ERR_SSL_…`) or Node's (`ERR_TLS_…`). */
const isHandshakeError = (error: NodeJS.ErrnoException) => /^ERR_(SSL|TLS)_/.test(error.code ?? "");

/** The server for `options`: node:https with the certificate, node:http without. */
function baseServer(options: GuardedServerOptions, limits: TimeLimits, listener: RequestListener): Server {
  const http = {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: limits.checkIntervalMs,
  };
  if (options.secure === undefined) return createServer(http, listener);
  return createHttpsServer(
    { ...http, ...options.secure, handshakeTimeout: limits.headersTimeoutMs },
    listener,
  ) as unknown as Server;
}

export function createGuardedServer(
  options: GuardedServerOptions,
  handle: (server: Server) => RequestListener,
): Server {
  const limits = { ...TIME_LIMITS, ...options.timeLimits };
  const maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  const hostsSetting = options.hostsSetting ?? "the listener's allowedHosts";
  const refusals = createListenerRefusals({
    name: options.name,
    logger: options.logger,
    count: options.countRefused,
    hostsSetting,
    connectionsSetting: options.connectionsSetting,
    headersTimeoutMs: limits.headersTimeoutMs,
    requestTimeoutMs: limits.requestTimeoutMs,
    maxConnections,
  });
  const isAllowedHost = createHostCheck({ host: options.host, allowedHosts: options.allowedHosts });
  const writeMisdirected = options.writeMisdirected ?? writeMisdirectedJson;
  const timeoutAnswer = rawAnswer(
    408,
    "Request Timeout",
    JSON.stringify({
      statusCode: 408,
      error: "Request Timeout",
      message: `The request did not arrive in time: headers within ${limits.headersTimeoutMs / 1000} s, the whole request within ${limits.requestTimeoutMs / 1000} s`,
    }),
  );

  let handler: RequestListener | undefined;
  const server = baseServer(options, limits, function guardedRequest(incoming, response) {
    closeLingeringWhenUnread(incoming);
    const hostHeader = incoming.headers.host;
    if (isAllowedHost(hostHeader)) {
      (handler as RequestListener)(incoming, response);
      return;
    }
    const host = hostHeader as string;
    const name = hostNameOf(host);
    refusals.host(host, name, incoming.socket.remoteAddress ?? "unknown");
    // The body first (bounded), so a client still sending reads the answer; then the
    // connection closes: it came for a name this listener does not answer.
    void discardUnread(incoming).then(() => {
      response.shouldKeepAlive = false;
      writeMisdirected(
        response,
        `Host ${shownHost(host)} is not a name this listener answers; if clients reach it by this name, add ${shownHost(name)} to ${hostsSetting}`,
      );
    });
  });
  handler = handle(server);
  server.maxConnections = maxConnections;
  server.on("drop", (data) => refusals.connection(data?.remoteAddress ?? "unknown"));
  server.on("clientError", (error: NodeJS.ErrnoException & { reason?: string }, socket: ClientSocket) => {
    if (isHandshakeError(error)) {
      // No HTTP was spoken, so there is nothing to answer. A handshake that timed out requested
      // nothing (as a connection that sends no byte).
      if (error.code !== "ERR_TLS_HANDSHAKE_TIMEOUT")
        refusals.handshake(error.reason ?? error.message, socket.remoteAddress ?? "unknown");
    } else if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
      // bytesRead of a TLS socket counts what the client sent after the handshake.
      if ((socket.bytesRead ?? 0) > 0) {
        refusals.timeout(socket.remoteAddress ?? "unknown");
        answerOnce(socket, timeoutAnswer);
      }
    } else if (options.secure === undefined || error.code?.startsWith("HPE_") === true) {
      // Over TLS only an HTTP parse error gets an answer: a client gone during its handshake
      // (a probe that only checks that the port opens) can read none.
      answerOnce(socket, NODE_ANSWERS[error.code ?? ""] ?? BAD_REQUEST);
    }
    socket.destroy();
  });
  return server;
}
