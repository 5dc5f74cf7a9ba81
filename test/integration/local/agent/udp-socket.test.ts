import { createSocket } from "node:dgram";
import { afterEach, describe, expect, it } from "vitest";
import { type BoundUdpSocket, bindUdpSocket, UdpBindError } from "../../../../local/agent/udp-socket.ts";
import { until } from "../../../helpers/eventually.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

const open: BoundUdpSocket[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((socket) => socket.close()));
});

async function bind(host: string, port = 0, receiveBufferBytes = 1024 * 1024) {
  const received: { text: string; address: string }[] = [];
  const logger = recordingLogger();
  const socket = await bindUdpSocket({
    name: "Log events",
    host,
    port,
    receiveBufferBytes,
    logger,
    onDatagram: (datagram, sender) => received.push({ text: datagram.toString(), address: sender.address }),
  });
  open.push(socket);
  return { socket, received, logger };
}

function send(host: string, port: number, text: string, type: "udp4" | "udp6" = "udp4"): Promise<void> {
  const client = createSocket(type);
  return new Promise((resolve, reject) =>
    client.send(text, port, host, (error) => {
      client.close();
      if (error) reject(error);
      else resolve();
    }),
  );
}

describe("bindUdpSocket", () => {
  it("receives datagrams on an IPv4 address with the sender's address", async () => {
    // Prepare
    const { socket, received } = await bind("127.0.0.1");

    // Act
    await send("127.0.0.1", socket.port, "/qseow-engine/;1");
    await until(() => received.length === 1, 1000);

    // Assess
    expect(received).toEqual([{ text: "/qseow-engine/;1", address: "127.0.0.1" }]);
  });

  it("receives datagrams on an IPv6 address", async () => {
    // Prepare
    const { socket, received } = await bind("::1");

    // Act
    await send("::1", socket.port, "hello", "udp6");
    await until(() => received.length === 1, 1000);

    // Assess
    expect(received).toEqual([{ text: "hello", address: "::1" }]);
  });

  it("resolves a host name once and binds its address", async () => {
    // Act
    const { socket } = await bind("localhost");

    // Assess
    expect(["127.0.0.1", "::1"]).toContain(socket.address);
  });

  it("rejects a port that is already bound, naming the reason", async () => {
    // Prepare
    const { socket } = await bind("127.0.0.1");

    // Act
    const second = bind("127.0.0.1", socket.port);

    // Assess
    await expect(second).rejects.toBeInstanceOf(UdpBindError);
    await expect(second).rejects.toThrow(`Log events: cannot bind UDP 127.0.0.1:${socket.port} (EADDRINUSE)`);
  });

  it("rejects an address that is not on this machine", async () => {
    await expect(bind("192.0.2.1")).rejects.toThrow(/cannot bind UDP 192\.0\.2\.1:0 \(EADDRNOTAVAIL\)/);
  });

  it("warns when the kernel grants a smaller receive buffer than configured", async () => {
    // Act
    const { logger } = await bind("127.0.0.1", 0, 1024 * 1024 * 1024);

    // Assess
    expect(logger.at("warn").some((entry) => entry.message.includes("receive buffer is smaller"))).toBe(true);
  });

  it("stops receiving once closed, and closing twice is harmless", async () => {
    // Prepare
    const { socket } = await bind("127.0.0.1");

    // Act
    await socket.close();
    await socket.close();
    const rebound = await bind("127.0.0.1", socket.port);

    // Assess: the port is free again
    expect(rebound.socket.port).toBe(socket.port);
  });
});
