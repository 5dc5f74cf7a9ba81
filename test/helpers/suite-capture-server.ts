/**
 * A capture server (capture-server.ts) for the tests of one file or `describe`: started before
 * them, stopped after them, and before each test its recorded requests cleared and its answer
 * set back to `answer`. Kept apart from capture-server.ts, which the benchmarks (plain node, no
 * test runner) use too.
 */
import { beforeEach } from "vitest";
import { type CaptureAnswer, type CaptureServer, startCaptureServer } from "./capture-server.ts";
import { resourceForSuite } from "./suite-resource.ts";

/** Call it at the top of a file or a `describe`; the server it returns is usable inside their tests. */
export function captureServerForSuite(answer: CaptureAnswer = 202): CaptureServer {
  const server = resourceForSuite("capture server", startCaptureServer, (started) => started.stop());
  beforeEach(() => {
    server.requests.length = 0;
    server.respondWith(answer);
  });
  return server;
}
