/**
 * Bodies over the limit from a client that sends `Connection: close`, as a load script or curl
 * does: `steward start` with the REST API (`restServer.maxBodyBytes` 512 KiB), the ingest API, the
 * config UI and the scrape endpoint. Each listener must read the body out before it answers 413, so the client,
 * still uploading, reads the answer instead of a write error (EPIPE) or a reset (ECONNRESET).
 *
 * Whether a listener that answers early loses the race depends on timing (on one machine 1 of 5
 * attempts, on another 4), so each case also sends its body in two halves on a raw socket, with a
 * pause between them: no answer may come before the second half, whatever the timing.
 */
import { writeFileSync } from "node:fs";
import { request } from "node:http";
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../helpers/free-port.ts";
import { type StewardProcess, spawnSteward } from "../../helpers/steward-process.ts";
import { suiteScratchDirectory } from "../../helpers/suite-scratch-directory.ts";

const MIB = 1024 * 1024;
const ATTEMPTS = 5;
const scratch = suiteScratchDirectory("steward-close-bodies-");
let steward: StewardProcess;
let ports: { ingest: number; rest: number; ui: number; scrape: number };

beforeAll(async () => {
  ports = {
    ingest: await freePort(),
    rest: await freePort(),
    ui: await freePort(),
    scrape: await freePort(),
  };
  const dir = scratch.root;
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
    maxBodyBytes: ${512 * 1024}
    endpointsEnable:
      fileCopy: true
  configVisualisation:
    enable: true
    host: 127.0.0.1
    port: ${ports.ui}
  scrapeEndpoint:
    enable: true
    host: 127.0.0.1
    port: ${ports.scrape}
`,
  );
  steward = spawnSteward(["start", "--config", "steward.yaml"], { cwd: dir });
  await steward.waitFor(/steward ready/);
}, 30_000);

afterAll(async () => {
  steward?.child.kill("SIGTERM");
  await steward?.exited();
});

/** Sends `size` bytes with `Connection: close`; the status the client read, or its error. */
function send(port: number, method: string, path: string, size: number): Promise<number | string> {
  const body = Buffer.alloc(size, 0x61);
  return new Promise((resolve) => {
    const req = request(
      {
        agent: false,
        host: "127.0.0.1",
        port,
        path,
        method,
        headers: {
          connection: "close",
          "content-type": "application/json",
          "content-length": String(size),
          authorization: "Bearer tok",
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? "no status"));
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    req.end(body);
  });
}

async function attempts(
  port: number,
  method: string,
  path: string,
  size: number,
): Promise<(number | string)[]> {
  const outcomes: (number | string)[] = [];
  for (let i = 0; i < ATTEMPTS; i++) outcomes.push(await send(port, method, path, size));
  return outcomes;
}

/**
 * Sends the headers and half the body on a raw socket, waits, then the rest. Returns what had
 * arrived before the second half (nothing, when the listener waits for the whole body) and the
 * status line read in the end.
 */
async function inTwoHalves(
  port: number,
  method: string,
  path: string,
  size: number,
): Promise<{ beforeSecondHalf: string; statusLine: string }> {
  const socket = connect(port, "127.0.0.1");
  let received = "";
  let error = "";
  socket.on("data", (chunk: Buffer) => {
    received += chunk.toString("latin1");
  });
  socket.on("error", (failure: NodeJS.ErrnoException) => {
    error = failure.code ?? failure.message;
  });
  const closed = new Promise((resolve) => socket.once("close", resolve));
  const half = Math.floor(size / 2);
  socket.write(
    `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n` +
      `Content-Type: application/json\r\nAuthorization: Bearer tok\r\nContent-Length: ${size}\r\n\r\n`,
  );
  socket.write(Buffer.alloc(half, 0x61));
  await new Promise((resolve) => setTimeout(resolve, 300));
  const beforeSecondHalf = received;
  // Not end(): a half-closed connection is one whose answer a server may drop. With
  // `Connection: close` the listener closes it once it has answered.
  socket.write(Buffer.alloc(size - half, 0x61));
  await closed;
  return { beforeSecondHalf, statusLine: received.split("\r\n")[0] || error };
}

/** Five attempts, then one in two halves: every one must read `status`, none before the whole body. */
async function expectEveryAttemptReads(
  status: number,
  port: number,
  method: string,
  path: string,
  size: number,
): Promise<void> {
  expect(await attempts(port, method, path, size)).toEqual(Array.from({ length: ATTEMPTS }, () => status));
  expect(await inTwoHalves(port, method, path, size)).toEqual({
    beforeSecondHalf: "",
    statusLine: expect.stringMatching(new RegExp(`^HTTP/1\\.1 ${status} `)),
  });
}

describe("oversized bodies with Connection: close", () => {
  it("REST API: a 3 MiB body to any route gets a 413 the client reads, every time", async () => {
    await expectEveryAttemptReads(413, ports.rest, "POST", "/v4/keyvalues/ns", 3 * MIB);
  });

  it("REST API: a 0.9 MB body to PUT /v4/filecopy, over restServer.maxBodyBytes, gets its 413", async () => {
    await expectEveryAttemptReads(413, ports.rest, "PUT", "/v4/filecopy", 900_000);
  });

  it("REST API: a 2.1 MB body to POST /v4/schedules gets its 413", async () => {
    await expectEveryAttemptReads(413, ports.rest, "POST", "/v4/schedules", 2_100_000);
  });

  it("REST API: a 3 MiB body to a route that does not exist gets its 404, every time", async () => {
    await expectEveryAttemptReads(404, ports.rest, "POST", "/v4/nothing-here", 3 * MIB);
  });

  it("ingest API: a 3 MiB event gets a 413 the client reads, every time", async () => {
    await expectEveryAttemptReads(413, ports.ingest, "POST", "/api/v1/audit-event", 3 * MIB);
  });

  it("config UI: a 3 MiB body gets its answer (404), every time", async () => {
    await expectEveryAttemptReads(404, ports.ui, "POST", "/status", 3 * MIB);
  });

  it("scrape endpoint: a 3 MiB body to /metrics gets its answer (405), every time", async () => {
    await expectEveryAttemptReads(405, ports.scrape, "POST", "/metrics", 3 * MIB);
  });
});
