/**
 * A connection closed after an answer whose request body was not read to its end (a body past
 * the discard bound, an upload cut by the shutdown) is closed as HTTP/1.1 asks (RFC 9112,
 * "Tear-down"): first only the listener's side, after the answer, while what the client still
 * sends is read and thrown away; then fully, once the client's request has ended or LINGER_MS
 * after the answer, whichever comes first. The time bounds what a client can make the listener
 * read, as the discard bound does before the answer.
 *
 * node:http closes such a connection at once, with the client's bytes still unread. The system
 * then resets the connection, and a client still uploading may lose the answer it had already
 * received (its own system drops what the application had not read yet) and report a broken pipe
 * or a reset instead of the 413. Measured against `steward start` with a client that keeps
 * uploading 40 MB past the bound: the broken pipe every time, and at times no answer at all.
 *
 * A connection whose request was read to its end closes as node:http closes it: nothing of the
 * client's is left unread, so there is nothing to reset.
 */
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";

/** Long enough for the client's system to have received the answer on any network. */
const LINGER_MS = 2_000;

type ClosingSocket = Socket & { destroySoon?: () => void };

/** Each connection's latest request: the one whose answer closes it. */
const latestRequest = new WeakMap<Socket, IncomingMessage>();

/**
 * For every request, before its answer: if that answer closes the connection with the request's
 * body left unread, the close lingers.
 */
export function closeLingeringWhenUnread(incoming: IncomingMessage): void {
  const socket = incoming.socket as ClosingSocket;
  if (!latestRequest.has(socket)) lingerAtClose(socket);
  latestRequest.set(socket, incoming);
}

/** node:http closes a connection after its last answer with `destroySoon()`: once per connection. */
function lingerAtClose(socket: ClosingSocket): void {
  const destroySoon = socket.destroySoon;
  if (destroySoon === undefined) return;
  socket.destroySoon = function closeLingering() {
    const incoming = latestRequest.get(socket);
    if (incoming === undefined || incoming.complete || incoming.destroyed || socket.destroyed) {
      destroySoon.call(socket);
      return;
    }
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    socket.once("close", () => clearTimeout(timer));
    incoming.once("end", () => destroySoon.call(socket));
    socket.end();
    incoming.resume();
  };
}
