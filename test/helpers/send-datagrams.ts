/** Sends UDP datagrams to 127.0.0.1:port, one after the other, from a loopback source address. */
import { createSocket } from "node:dgram";

export async function sendDatagrams(
  port: number,
  datagrams: readonly string[],
  from = "127.0.0.1",
): Promise<void> {
  const socket = createSocket("udp4");
  await new Promise<void>((resolve) => socket.bind(0, from, resolve));
  try {
    for (const text of datagrams) {
      await new Promise<void>((resolve, reject) =>
        socket.send(text, port, "127.0.0.1", (error) => (error ? reject(error) : resolve())),
      );
    }
  } finally {
    socket.close();
  }
}

/**
 * Sends `count` datagrams of `bytes` bytes to 127.0.0.1:port as fast as the kernel takes them:
 * every send is issued before any completes, so a receiver in this process reads none of them
 * until all are out (a burst its receive buffer must hold, or lose).
 */
export async function floodDatagrams(port: number, count: number, bytes = 400): Promise<void> {
  const socket = createSocket("udp4");
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  const payload = Buffer.alloc(bytes, "x");
  try {
    await Promise.all(
      Array.from(
        { length: count },
        () =>
          new Promise<void>((resolve, reject) =>
            socket.send(payload, port, "127.0.0.1", (error) => (error ? reject(error) : resolve())),
          ),
      ),
    );
  } finally {
    socket.close();
  }
}
