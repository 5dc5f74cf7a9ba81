/**
 * The connections of a listener that have not sent a byte of a request: a browser opens one ahead
 * of the request it expects to make (a speculative connection) and may keep it unused for minutes.
 *
 * node:http counts such a connection as busy, not idle: `closeIdleConnections()` leaves it open,
 * and `server.close()` stops the timer that would have cut it at the headers limit. A listener's
 * stop waited for it until the browser let go or the shutdown's deadline gave up its connections:
 * with a status page open in a browser, a shutdown could take that long. It requested nothing, so
 * the stop closes it at once, as it closes idle kept-alive connections.
 *
 * Over HTTPS the connection HTTP is spoken on is the TLS one, whose `bytesRead` counts what the
 * client sent after the handshake: a completed handshake is not a request. A connection still in
 * its handshake at the stop has requested nothing either, and is closed too.
 */
import type { Server } from "node:http";
import type { Socket } from "node:net";

export interface UnspokenConnections {
  /** Closes every connection that has not sent a byte of a request since it opened. */
  close(): void;
}

/** The client's address and port: one open connection of a listener. */
const peerOf = (socket: Socket) => `${socket.remoteAddress}:${socket.remotePort}`;

/** Watches the connections `server` accepts from now on; `secure` when it speaks HTTPS. */
export function watchUnspokenConnections(server: Server, secure: boolean): UnspokenConnections {
  /** The connections HTTP is spoken on: the TCP ones, or over HTTPS the TLS ones. */
  const open = new Set<Socket>();
  /** Over HTTPS, the TCP connections whose handshake has not completed, by peer. */
  const handshaking = new Map<string, Socket>();
  const watch = (socket: Socket) => {
    open.add(socket);
    socket.once("close", () => open.delete(socket));
  };
  if (!secure) {
    server.on("connection", watch);
  } else {
    server.on("connection", (socket: Socket) => {
      const peer = peerOf(socket);
      handshaking.set(peer, socket);
      socket.once("close", () => {
        if (handshaking.get(peer) === socket) handshaking.delete(peer);
      });
    });
    server.on("secureConnection", (socket: Socket) => {
      handshaking.delete(peerOf(socket));
      watch(socket);
    });
  }
  return {
    close() {
      for (const socket of handshaking.values()) socket.destroy();
      for (const socket of open) if (socket.bytesRead === 0) socket.destroy();
    },
  };
}
