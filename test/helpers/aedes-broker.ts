/** An aedes MQTT 3.1.1 broker on loopback; `port` may be fixed to restart on the same port. */

import type { AddressInfo } from "node:net";
import { createServer, type Server, type Socket } from "node:net";
import { Aedes } from "aedes";

export interface AedesBroker {
  port: number;
  stop(): Promise<void>;
}

export async function startAedes(port = 0): Promise<AedesBroker> {
  const broker = await Aedes.createBroker();
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    broker.handle(socket);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    async stop() {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
