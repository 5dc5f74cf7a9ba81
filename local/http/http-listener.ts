/**
 * Serves a Hono app on host:port with @hono/node-server: `startHttpListener(...) → Service`.
 * Answers are written in batches, one per event-loop turn (batched-responses.ts), each once its
 * request's body has been read to its end (answer-after-body.ts).
 * `serveOn` is the part every local listener shares: the guarded server (time limits, connection
 * cap, Host check: guarded-server.ts) listening on host:port. Listen failures (port in use, bad
 * address) reject the start; stop() stops accepting, lets in-flight requests finish and closes idle
 * keep-alive sockets and connections that have not sent a request (unspoken-connections.ts) so
 * shutdown is prompt; closeConnections() gives up the requests still in flight. Once a listener
 * stopped, every answer closes its connection (`Connection: close`): a kept-alive connection must
 * not carry another request, and busy clients would otherwise keep it open, and the stop waiting,
 * indefinitely (Node's server.close() leaves busy connections serving).
 *
 * A listener on an address other than loopback that answers no name besides its own host warns at
 * start: clients that reach it by a DNS name would get 421 until the name is in `allowedHosts`.
 *
 * With `tls` (its section's enabled `tls` block) the listener speaks HTTPS: the certificate is read
 * before the port is taken (one that cannot be served fails the start, naming the setting and the
 * file), its URL says `https://`, and its files are read again while it listens, a change served
 * to new connections without a restart (listener-certificate.ts).
 */
import { type RequestListener, type Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Server as TlsServer } from "node:tls";
import { getRequestListener, type Http2Bindings, type HttpBindings } from "@hono/node-server";
import type { Hono } from "hono";
import { isIPv4, isIPv6, isLoopbackHost } from "../../core/config/index.ts";
import type { Clock, Logger, Stoppable } from "../../core/ports.ts";
import { systemClock } from "../../core/system-clock.ts";
import { answerAfterBody } from "./answer-after-body.ts";
import { batchResponses } from "./batched-responses.ts";
import { createGuardedServer, type GuardOptions } from "./guarded-server.ts";
import {
  type ListenerCertificate,
  type ListenerTls,
  openListenerCertificate,
} from "./listener-certificate.ts";
import { watchUnspokenConnections } from "./unspoken-connections.ts";

export interface ListenOptions extends GuardOptions {
  name: string;
  host: string;
  port: number;
  logger: Logger;
  /** HTTPS with this certificate; plain HTTP without. */
  tls?: ListenerTls | undefined;
  /** Times the certificate's reads (the system clock unless given). */
  clock?: Clock | undefined;
}

export interface HttpListenerOptions extends ListenOptions {
  // biome-ignore lint/suspicious/noExplicitAny: any Hono app, whatever its env and schema types
  app: Hono<any, any, any>;
}

export interface HttpListener extends Stoppable {
  /** The bound port (differs from the requested one when that was 0). */
  readonly port: number;
  readonly url: string;
  /** Closes every connection still open: requests in flight get no answer (the shutdown's deadline). */
  closeConnections(): void;
}

export class ListenError extends Error {
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = "ListenError";
  }
}

/** Starts `server` listening on host:port; the listener stops it gracefully. */
async function listenOn(
  server: Server,
  options: ListenOptions,
  certificate: ListenerCertificate | undefined,
): Promise<HttpListener> {
  const unspoken = watchUnspokenConnections(server, certificate !== undefined);
  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      const reason = error.code ?? error.message;
      reject(
        new ListenError(`${options.name}: cannot listen on ${options.host}:${options.port} (${reason})`, {
          cause: error,
        }),
      );
    };
    server.once("error", onError);
    server.listen(options.port, options.host, () => {
      server.off("error", onError);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const scheme = certificate === undefined ? "http" : "https";
  const url = `${scheme}://${options.host.includes(":") ? `[${options.host}]` : options.host}:${port}`;
  options.logger.info(`${options.name} listening`, { url });
  const watching = certificate?.watch(server as unknown as TlsServer);

  let stopping: Promise<void> | undefined;
  return {
    port,
    url,
    closeConnections() {
      server.closeAllConnections();
    },
    stop() {
      stopping ??= Promise.all([
        watching?.stop(),
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
          unspoken.close();
        }),
      ]).then(() => options.logger.info(`${options.name} stopped`));
      return stopping;
    },
  };
}

/**
 * Whether the listener is bound to an address (or a wildcard) other than loopback and answers no
 * host name there: no `allowedHosts`, and its host is no name (host-check.ts).
 */
function answersNoName(options: ListenOptions): boolean {
  const { host } = options;
  const bare = host.replace(/^\[|\]$/g, "");
  const isAddress = isIPv4(bare) || isIPv6(bare);
  return isAddress && !isLoopbackHost(host) && (options.allowedHosts ?? []).length === 0;
}

/** The guarded server running `handle` (given the server, to see whether it still listens), listening. */
export async function serveOn(
  options: ListenOptions,
  handle: (server: Server) => RequestListener,
): Promise<HttpListener> {
  const certificate =
    options.tls === undefined
      ? undefined
      : await openListenerCertificate(options.tls, {
          name: options.name,
          logger: options.logger,
          clock: options.clock ?? systemClock,
        });
  const server = createGuardedServer({ ...options, secure: certificate?.current().options }, handle);
  const listener = await listenOn(server, options, certificate);
  if (answersNoName(options)) {
    options.logger.warn(
      `${options.name} listens on ${options.host} and answers no host name yet: requests that name this machine by a DNS name (the Host header, e.g. https://qlik-ops.corp.local:${listener.port}) get 421; list the names clients use in ${options.hostsSetting ?? "allowedHosts"}`,
    );
  }
  return listener;
}

export function startHttpListener(options: HttpListenerOptions): Promise<HttpListener> {
  const fetch = batchResponses(answerAfterBody(options.app.fetch));
  return serveOn(options, (server) =>
    getRequestListener(async function closingOnceStopped(
      request: Request,
      env: HttpBindings | Http2Bindings,
    ) {
      const response = await fetch(request, env);
      if (!server.listening && env.outgoing instanceof ServerResponse)
        env.outgoing.setHeader("connection", "close");
      return response;
    }),
  );
}
