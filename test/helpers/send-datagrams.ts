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
