/**
 * Serves a Hono app on host:port with @hono/node-server: `startHttpListener(...) → Service`.
 * Answers are written in batches, one per event-loop turn (batched-responses.ts), each once its
 * request's body has been read to its end (answer-after-body.ts).
 * `listenOn` is the part every local listener shares: listen failures (port in use, bad address)
 * reject the start; stop() stops accepting, lets in-flight requests finish and closes idle
 * keep-alive sockets so shutdown is prompt.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import type { Hono } from "hono";
import type { Logger, Stoppable } from "../../core/ports.ts";
import { answerAfterBody } from "./answer-after-body.ts";
import { batchResponses } from "./batched-responses.ts";

export interface ListenOptions {
  name: string;
  host: string;
  port: number;
  logger: Logger;
}

export interface HttpListenerOptions extends ListenOptions {
  // biome-ignore lint/suspicious/noExplicitAny: any Hono app, whatever its env and schema types
  app: Hono<any, any, any>;
}

export interface HttpListener extends Stoppable {
  /** The bound port (differs from the requested one when that was 0). */
  readonly port: number;
  readonly url: string;
}

export class ListenError extends Error {
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = "ListenError";
  }
}

/** Starts `server` listening on host:port; the listener stops it gracefully. */
export async function listenOn(server: Server, options: ListenOptions): Promise<HttpListener> {
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
  const url = `http://${options.host.includes(":") ? `[${options.host}]` : options.host}:${port}`;
  options.logger.info(`${options.name} listening`, { url });

  let stopping: Promise<void> | undefined;
  return {
    port,
    url,
    stop() {
      stopping ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }).then(() => options.logger.info(`${options.name} stopped`));
      return stopping;
    },
  };
}

export function startHttpListener(options: HttpListenerOptions): Promise<HttpListener> {
  return listenOn(
    createAdaptorServer({ fetch: batchResponses(answerAfterBody(options.app.fetch)) }) as Server,
    options,
  );
}
