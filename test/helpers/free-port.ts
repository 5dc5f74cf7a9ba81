import { createServer, type Server } from "node:net";

/**
 * Ports this helper has handed out in this process. The system may give a port that was just
 * closed to the next bind at once, so two ports asked for one after the other (one for each of a
 * configuration's listeners) could be the same; a port is therefore never handed out twice.
 */
const handedOut = new Set<number>();

/** A loopback port that was free a moment ago (bind 0, read, close), not handed out before. */
export async function freePort(): Promise<number> {
  const held: Server[] = [];
  try {
    for (;;) {
      const server = createServer();
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      held.push(server);
      const { port } = server.address() as { port: number };
      // Held open while looking further, so that the next bind gets another port.
      if (!handedOut.has(port)) {
        handedOut.add(port);
        return port;
      }
    }
  } finally {
    await Promise.all(held.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  }
}

/** Polls `url` until it answers (any status) or `timeoutMs` passes. */
export async function waitForHttp(url: string, timeoutMs = 15_000): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await fetch(url);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
