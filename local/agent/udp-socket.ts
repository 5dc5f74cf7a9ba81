/**
 * One UDP socket of the agent (node:dgram): bound on an IPv4 or IPv6 address, or a host name
 * resolved once at start, with the receive buffer asked of the kernel. Binding failures (port in
 * use, address not on this machine) reject the start with the reason, so the process exits 1
 * instead of running with a silent gap. Every datagram is handed to `onDatagram`
 * synchronously; what to do with it (checks, queue) is the queue's business.
 */
import { createSocket, type RemoteInfo, type Socket } from "node:dgram";
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import type { Logger } from "../../core/ports.ts";

export interface UdpSocketOptions {
  /** For log lines and errors, e.g. "User events". */
  name: string;
  host: string;
  port: number;
  receiveBufferBytes: number;
  onDatagram(datagram: Buffer, sender: RemoteInfo): void;
  /** Told of a socket error after binding, as often as it is logged (once a minute at most). */
  onError?: ((error: Error) => void) | undefined;
  logger: Logger;
}

export interface BoundUdpSocket {
  readonly address: string;
  readonly port: number;
  /** Stops receiving; resolves once the socket is closed. Idempotent. */
  close(): Promise<void>;
}

export class UdpBindError extends Error {
  override name = "UdpBindError";
}

/** The address to bind: a literal as given, a name resolved once (first address, any family). */
async function resolveHost(name: string, host: string): Promise<{ address: string; family: 4 | 6 }> {
  const literal = isIP(host);
  if (literal === 4 || literal === 6) return { address: host, family: literal };
  try {
    const found = await lookup(host);
    return { address: found.address, family: found.family === 6 ? 6 : 4 };
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new UdpBindError(`${name}: cannot resolve serverHost ${host} (${reason})`, { cause: error });
  }
}

export async function bindUdpSocket(options: UdpSocketOptions): Promise<BoundUdpSocket> {
  const { name, logger } = options;
  const { address, family } = await resolveHost(name, options.host);
  const socket: Socket = createSocket({ type: family === 6 ? "udp6" : "udp4", reuseAddr: false });
  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      socket.close();
      const reason = error.code ?? error.message;
      reject(
        new UdpBindError(`${name}: cannot bind UDP ${options.host}:${options.port} (${reason})`, {
          cause: error,
        }),
      );
    };
    socket.once("error", onError);
    socket.bind({ address, port: options.port, exclusive: true }, () => {
      socket.off("error", onError);
      resolve();
    });
  });
  applyReceiveBuffer(socket, options);

  let lastErrorLog = 0;
  socket.on("error", (error) => {
    // After binding, errors are per datagram (e.g. ICMP feedback); the socket keeps receiving.
    const now = Date.now();
    if (now - lastErrorLog >= 60_000) {
      lastErrorLog = now;
      logger.warn(`${name}: UDP socket error`, { error: error.message });
      options.onError?.(error);
    }
  });
  socket.on("message", options.onDatagram);
  const bound = socket.address();
  logger.info(`${name} UDP server listening`, { address: bound.address, port: bound.port });

  let closing: Promise<void> | undefined;
  return {
    address: bound.address,
    port: bound.port,
    close: () => {
      closing ??= new Promise<void>((resolve) => socket.close(() => resolve()));
      return closing;
    },
  };
}

/** Asks for the configured buffer; says plainly when the kernel granted less (lost bursts). */
function applyReceiveBuffer(socket: Socket, options: UdpSocketOptions): void {
  try {
    socket.setRecvBufferSize(options.receiveBufferBytes);
  } catch (error) {
    options.logger.warn(`${options.name}: could not set the UDP receive buffer`, {
      requestedBytes: options.receiveBufferBytes,
      error: error instanceof Error ? error.message : String(error),
    });
  }
  const granted = socket.getRecvBufferSize();
  // Linux reports twice the size it granted (half is bookkeeping), so compare with the doubled cap.
  if (granted < options.receiveBufferBytes) {
    options.logger.warn(`${options.name}: the UDP receive buffer is smaller than configured`, {
      requestedBytes: options.receiveBufferBytes,
      grantedBytes: granted,
      hint: "raise net.core.rmem_max (sysctl) to at least half the requested size",
    });
  }
}
