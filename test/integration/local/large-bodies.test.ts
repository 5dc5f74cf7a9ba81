/**
 * Bodies over the limit, as a client still uploading meets them (issue of EPIPE / connection
 * reset): `steward start` with the ingest API and the REST API, a Node client sending bodies of
 * 8 MB — declared and chunked — on one keep-alive agent. Every answer is a 413 the client reads,
 * and the connection stays usable; a body past the discard bound (16 MiB beyond the limit) still
 * gets its 413, on a connection that is then closed without a reset, also for a client that keeps
 * sending whatever the answer.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../helpers/free-port.ts";
import { type StewardProcess, spawnSteward } from "../../helpers/steward-process.ts";

const MB = 1024 * 1024;
let steward: StewardProcess;
let dir: string;
let ports: { ingest: number; rest: number };

beforeAll(async () => {
  ports = { ingest: await freePort(), rest: await freePort() };
  dir = mkdtempSync(join(tmpdir(), "steward-bodies-"));
  writeFileSync(
    join(dir, "steward.yaml"),
    `Service:
  auditEvents:
    enable: true
    host: 127.0.0.1
    port: ${ports.ingest}
    apiToken: tok
  restServer:
    enable: true
    host: 127.0.0.1
    port: ${ports.rest}
`,
  );
  steward = spawnSteward(["start", "--config", "steward.yaml"], { cwd: dir });
  await steward.waitFor(/steward ready/);
}, 30_000);

afterAll(async () => {
  steward?.child.kill("SIGTERM");
  await steward?.exited();
  rmSync(dir, { recursive: true, force: true });
});

interface Outcome {
  status: number | undefined;
  connection: string | undefined;
  error: string | undefined;
}

/** POSTs `size` bytes, declared or chunked, and reports what the client saw. */
function post(agent: Agent, port: number, path: string, size: number, declared: boolean): Promise<Outcome> {
  const body = Buffer.alloc(size, 0x61);
  return new Promise((resolve) => {
    const outcome: Outcome = { status: undefined, connection: undefined, error: undefined };
    const req = request(
      {
        agent,
        host: "127.0.0.1",
        port,
        path,
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: "Bearer tok",
          ...(declared ? { "content-length": String(size) } : {}),
        },
      },
      (res) => {
        outcome.status = res.statusCode;
        outcome.connection = res.headers.connection;
        res.resume();
        res.on("end", () => resolve(outcome));
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => {
      outcome.error = error.code ?? error.message;
      // The answer may have been read before the upload failed; wait briefly for it.
      setTimeout(() => resolve(outcome), 200);
    });
    if (declared) req.end(body);
    else {
      for (let offset = 0; offset < size; offset += 64 * 1024)
        req.write(body.subarray(offset, offset + 64 * 1024));
      req.end();
    }
  });
}

/**
 * POSTs `size` bytes over a raw connection that keeps sending as fast as the server reads,
 * whatever it answers, as a client uploading a large file does; reports the answer's status line,
 * whether the server ended the connection cleanly, and the error the client met (a reset, a
 * broken pipe), if any.
 */
async function uploadRaw(port: number, path: string, size: number, declared: boolean) {
  const socket = connect(port, "127.0.0.1");
  let received = "";
  let error: string | undefined;
  let ended = false;
  socket.on("data", (chunk: Buffer) => {
    received += chunk.toString("latin1");
  });
  socket.on("error", (failure: NodeJS.ErrnoException) => {
    error = failure.code;
  });
  socket.on("end", () => {
    ended = true;
  });
  const closed = new Promise((resolve) => socket.once("close", resolve));
  await new Promise((resolve) => socket.once("connect", resolve));
  const framing = declared ? `Content-Length: ${size}` : "Transfer-Encoding: chunked";
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAuthorization: Bearer tok\r\n${framing}\r\n\r\n`,
  );
  const piece = Buffer.alloc(256 * 1024, 0x61);
  const framed = declared
    ? piece
    : Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from("\r\n")]);
  for (let sent = 0; sent < size && !socket.destroyed; sent += piece.length) {
    if (!socket.write(framed))
      await new Promise((resolve) => socket.once("drain", resolve).once("close", resolve));
  }
  if (!declared && !socket.destroyed) socket.write("0\r\n\r\n");
  await closed;
  return { statusLine: received.split("\r\n", 1)[0], ended, error };
}

/** Each listener, with each way of framing a body: its name, listener, path and whether declared. */
const BODIES = [
  ["ingest API, declared length", "ingest", "/api/v1/audit-event", true],
  ["ingest API, chunked", "ingest", "/api/v1/audit-event", false],
  ["REST API, declared length", "rest", "/v4/keyvalues/ns", true],
  ["REST API, chunked", "rest", "/v4/keyvalues/ns", false],
] as const;

describe("bodies over the limit", () => {
  it.each(BODIES)(
    "%s: 8 MB bodies get a 413 the client reads, on a connection that stays open",
    async (_name, listener, path, declared) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const outcomes: Outcome[] = [];
        for (let i = 0; i < 3; i++) outcomes.push(await post(agent, ports[listener], path, 8 * MB, declared));

        expect(outcomes).toEqual(
          Array.from({ length: 3 }, () => ({ status: 413, connection: "keep-alive", error: undefined })),
        );
      } finally {
        agent.destroy();
      }
    },
  );

  it.each(BODIES)(
    "%s: a body past the discard bound still gets its 413, and its connection is closed without a reset",
    async (_name, listener, path, declared) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const outcome = await post(agent, ports[listener], path, 40 * MB, declared);

        expect(outcome).toEqual({ status: 413, connection: "close", error: undefined });
      } finally {
        agent.destroy();
      }
    },
  );
  it.each(BODIES)(
    "%s: a client still uploading past the discard bound reads the 413 and the connection's end, never a reset",
    async (_name, listener, path, declared) => {
      const outcome = await uploadRaw(ports[listener], path, 40 * MB, declared);

      expect(outcome).toEqual({
        statusLine: "HTTP/1.1 413 Payload Too Large",
        ended: true,
        error: undefined,
      });
    },
  );
});
