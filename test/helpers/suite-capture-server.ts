/**
 * A capture server (capture-server.ts) for the tests of one file or `describe`: started before
 * them, stopped after them, and before each test its recorded requests cleared and its answer
 * set back to `answer`. Kept apart from capture-server.ts, which the benchmarks (plain node, no
 * test runner) use too.
 */
import { afterAll, beforeAll, beforeEach } from "vitest";
import { type CaptureAnswer, type CaptureServer, startCaptureServer } from "./capture-server.ts";

/** Call it at the top of a file or a `describe`; the server it returns is usable inside their tests. */
export function captureServerForSuite(answer: CaptureAnswer = 202): CaptureServer {
  let server: CaptureServer | undefined;
  beforeAll(async () => {
    server = await startCaptureServer();
  });
  afterAll(async () => {
    await server?.stop();
  });
  beforeEach(() => {
    started().requests.length = 0;
    started().respondWith(answer);
  });
  const started = (): CaptureServer => {
    if (server === undefined) throw new Error("the capture server is started before the suite's tests");
    return server;
  };
  return {
    get url() {
      return started().url;
    },
    get requests() {
      return started().requests;
    },
    respondWith: (next) => started().respondWith(next),
    stop: () => started().stop(),
  };
}
