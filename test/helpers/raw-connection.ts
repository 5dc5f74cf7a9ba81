/**
 * A client on a bare TCP socket, for tests of what a listener does with clients no HTTP library
 * would be: one that sends its request a byte at a time, stops half-way, opens connections and
 * sends nothing, or names any `Host` it likes. Records what arrives and when the listener closed
 * the connection.
 */
import { connect, type Socket } from "node:net";

export interface RawConnection {
  readonly socket: Socket;
  /** Everything the listener sent so far, as text. */
  received(): string;
  /** Resolves with the milliseconds from open to close once the listener (or the test) closed it. */
  readonly closed: Promise<number>;
  /** Whether it is closed now. */
  isClosed(): boolean;
  /** Sends `text` one character every `everyMs`, until it is all sent or the connection closed. */
  dribble(text: string, everyMs: number): void;
}

export async function openRaw(port: number, host = "127.0.0.1"): Promise<RawConnection> {
  const socket = connect(port, host);
  const openedAt = Date.now();
  let text = "";
  let isClosed = false;
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    text += chunk;
  });
  socket.on("error", () => undefined);
  const closed = new Promise<number>((resolve) =>
    socket.once("close", () => {
      isClosed = true;
      resolve(Date.now() - openedAt);
    }),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  return {
    socket,
    received: () => text,
    closed,
    isClosed: () => isClosed,
    dribble(rest, everyMs) {
      let sent = 0;
      const timer = setInterval(() => {
        if (isClosed || socket.destroyed || sent >= rest.length) {
          clearInterval(timer);
          return;
        }
        socket.write(rest.charAt(sent));
        sent += 1;
      }, everyMs);
    },
  };
}

/** The status code of the first answer in `text`, or undefined when none arrived. */
export function statusOf(text: string): number | undefined {
  const match = /^HTTP\/1\.1 (\d{3}) /.exec(text);
  return match === null ? undefined : Number(match[1]);
}

/** The body of the first answer in `text` (after the blank line). */
export function bodyOf(text: string): string {
  const start = text.indexOf("\r\n\r\n");
  return start === -1 ? "" : text.slice(start + 4);
}

/** One request as raw text, with the given `Host`, more header lines and, for a body, its length. */
export function rawRequest(
  method: string,
  path: string,
  host: string,
  body = "",
  headers: Readonly<Record<string, string>> = {},
): string {
  const lines = [`${method} ${path} HTTP/1.1`, `Host: ${host}`, "Connection: close"];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (body !== "") lines.push("Content-Type: application/json", `Content-Length: ${Buffer.byteLength(body)}`);
  return `${lines.join("\r\n")}\r\n\r\n${body}`;
}

/** Sends one raw request on a new connection and resolves with everything that came back. */
export async function exchange(port: number, request: string): Promise<string> {
  const connection = await openRaw(port);
  connection.socket.write(request);
  await connection.closed;
  return connection.received();
}
