/**
 * A loopback TCP server that speaks just enough MQTT 3.1.1 to misbehave as a broker can: it
 * accepts connections but never acknowledges a PUBLISH ("no-puback"), refuses every connection
 * with CONNACK return code 5, not authorised ("refuse"), or never answers a CONNECT ("silent").
 */
import { createServer, type Socket } from "node:net";

export type StallingBehaviour = "no-puback" | "refuse" | "silent";

export interface StallingBroker {
  port: number;
  stop(): Promise<void>;
}

const CONNACK_ACCEPTED = Buffer.from([0x20, 0x02, 0x00, 0x00]);
const CONNACK_NOT_AUTHORISED = Buffer.from([0x20, 0x02, 0x00, 0x05]);

export async function startStallingBroker(behaviour: StallingBehaviour): Promise<StallingBroker> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    // The first bytes a client sends are its CONNECT packet; everything after it is swallowed.
    socket.once("data", () => {
      if (behaviour === "no-puback") socket.write(CONNACK_ACCEPTED);
      if (behaviour === "refuse") socket.end(CONNACK_NOT_AUTHORISED);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
