/**
 * One engine API session: JSON-RPC 2.0 over a TLS WebSocket (the `ws` package does the framing).
 * Requests carry increasing ids; answers are matched by id; notifications (no id) are logged and
 * otherwise ignored. Every call is bounded by `timeoutMs`. A closed socket, a malformed message
 * or an engine error rejects the pending calls with a typed error.
 */
import { randomUUID } from "node:crypto";
import WebSocket from "ws";
import {
  PlatformConnectionClosedError,
  PlatformResponseError,
  PlatformTimeoutError,
  PlatformUnreachableError,
} from "../../platform/index.ts";
import type { Clock, Logger, TimerHandle } from "../../ports.ts";
import type { PlatformConnectionOptions, PlatformTlsMaterial } from "./options.ts";

/** Handle of the Global object of every engine session. */
export const GLOBAL_HANDLE = -1;

/** An error answer of the engine, `error: {code, message, parameter}`. */
export class EngineRequestError extends PlatformResponseError {
  override name = "EngineRequestError";
  constructor(
    message: string,
    readonly code: number,
    readonly method: string,
  ) {
    super(message, { engineErrorCode: code });
  }
}

export interface EngineSessionOptions {
  readonly connection: PlatformConnectionOptions;
  readonly tls: PlatformTlsMaterial;
  readonly clock: Clock;
  readonly logger: Logger;
}

interface PendingCall {
  readonly method: string;
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: Error) => void;
  readonly timer: TimerHandle;
}

export interface EngineSession {
  /** Calls `method` on the object `handle`; resolves to the `result` member of the answer. */
  call(handle: number, method: string, params?: Readonly<Record<string, unknown>>): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * Opens a session on `/app/<appId>/identity/<random>` (`engineData` instead of an app id for the
 * Global object alone). The engine shares sessions per user and path; a fresh identity keeps two
 * concurrent operations (two reloads, a dump during a reload) from attaching to one another's
 * session, where OpenDoc would fail with "App already open".
 */
export function openEngineSession(
  options: EngineSessionOptions,
  appId = "engineData",
): Promise<EngineSession> {
  const { connection, tls, clock, logger } = options;
  const where = `engine at ${connection.host}:${connection.enginePort}`;
  const url = `wss://${connection.host}:${connection.enginePort}/app/${encodeURIComponent(appId)}/identity/steward-${randomUUID()}`;
  const socket = new WebSocket(url, {
    cert: tls.cert,
    key: tls.key,
    ...(tls.ca === undefined ? {} : { ca: tls.ca }),
    ...(tls.passphrase === undefined ? {} : { passphrase: tls.passphrase }),
    rejectUnauthorized: connection.rejectUnauthorized,
    headers: { "X-Qlik-User": connection.userHeader },
    handshakeTimeout: connection.timeoutMs,
    maxPayload: 64 * 1024 * 1024,
  });
  const pending = new Map<number, PendingCall>();
  let nextId = 1;
  let failure: Error | undefined;

  function failAll(error: Error): void {
    failure ??= error;
    for (const [id, call] of pending) {
      clock.clearTimeout(call.timer);
      pending.delete(id);
      call.reject(error);
    }
  }

  function onMessage(data: WebSocket.RawData): void {
    let message: {
      id?: unknown;
      result?: unknown;
      error?: { code?: unknown; message?: unknown };
      method?: unknown;
    };
    try {
      message = JSON.parse(data.toString()) as typeof message;
      if (message === null || typeof message !== "object") throw new TypeError("not an object");
    } catch (error) {
      // Which call the broken message answered is unknowable: fail them all and drop the session.
      failAll(new PlatformResponseError(`${where} sent malformed JSON`, { cause: error }));
      socket.terminate();
      return;
    }
    if (typeof message.id !== "number") {
      logger.debug("engine notification", { method: String(message.method ?? "") });
      return;
    }
    const call = pending.get(message.id);
    if (call === undefined) return;
    pending.delete(message.id);
    clock.clearTimeout(call.timer);
    if (message.error !== undefined) {
      const code = typeof message.error.code === "number" ? message.error.code : -1;
      const text = typeof message.error.message === "string" ? message.error.message : "unknown error";
      call.reject(
        new EngineRequestError(`${where} refused ${call.method}: ${text} (code ${code})`, code, call.method),
      );
      return;
    }
    call.resolve(message.result);
  }

  const session: EngineSession = {
    call(handle, method, params = {}) {
      if (failure !== undefined) return Promise.reject(failure);
      if (socket.readyState !== WebSocket.OPEN) {
        return Promise.reject(
          new PlatformConnectionClosedError(`${where} connection is closing; ${method} not sent`),
        );
      }
      const id = nextId++;
      return new Promise<unknown>((resolve, reject) => {
        const timer = clock.setTimeout(() => {
          pending.delete(id);
          reject(
            new PlatformTimeoutError(`${where} did not answer ${method} within ${connection.timeoutMs} ms`),
          );
        }, connection.timeoutMs);
        pending.set(id, { method, resolve, reject, timer });
        socket.send(JSON.stringify({ jsonrpc: "2.0", id, handle, method, params }));
      });
    },
    close() {
      failAll(new PlatformConnectionClosedError(`${where} session closed by Steward`));
      if (socket.readyState === WebSocket.CLOSED) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = clock.setTimeout(() => {
          socket.terminate();
          resolve();
        }, 1000);
        socket.once("close", () => {
          clock.clearTimeout(timer);
          resolve();
        });
        socket.close();
      });
    },
  };

  return new Promise<EngineSession>((resolve, reject) => {
    let opened = false;
    socket.once("open", () => {
      opened = true;
      socket.on("message", onMessage);
      socket.on("close", (code) => {
        failAll(new PlatformConnectionClosedError(`${where} closed the connection (code ${code})`));
      });
      resolve(session);
    });
    socket.once("unexpected-response", (_req, res) => {
      reject(
        new PlatformResponseError(`${where} refused the session: HTTP ${res.statusCode}`, {
          status: res.statusCode ?? 0,
        }),
      );
      socket.terminate();
    });
    socket.on("error", (error: Error) => {
      if (!opened) {
        const timedOut = error.message.includes("Opening handshake has timed out");
        reject(
          timedOut
            ? new PlatformTimeoutError(`${where} did not open a session within ${connection.timeoutMs} ms`, {
                cause: error,
              })
            : new PlatformUnreachableError(`${where} unreachable: ${error.message}${hintFor(error)}`, {
                cause: error,
              }),
        );
      } else {
        failAll(
          new PlatformConnectionClosedError(`${where} connection failed: ${error.message}`, { cause: error }),
        );
      }
    });
  });
}

/** A platform that does not trust the client certificate hangs up during the TLS 1.3 handshake. */
function hintFor(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "ECONNRESET" || error.message === "socket hang up"
    ? " (check that the platform trusts the client certificate)"
    : "";
}
