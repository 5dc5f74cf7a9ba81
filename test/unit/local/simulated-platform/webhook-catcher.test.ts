import { request } from "node:http";
import { describe, expect, it, onTestFinished } from "vitest";
import {
  type CaughtCall,
  MAX_CAUGHT_BODY_BYTES,
  startWebhookCatcher,
} from "../../../../local/simulated-platform/webhook-catcher.ts";

async function catcher() {
  const calls: CaughtCall[] = [];
  const started = await startWebhookCatcher({ host: "127.0.0.1", onCall: (call) => calls.push(call) });
  onTestFinished(() => started.stop());
  return { url: started.url, calls };
}

/** A raw request, so that a body of any size or shape can be sent; answers the status. */
function send(url: string, method: string, body?: string | Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("webhook catcher", () => {
  it("answers 204 and hands over a JSON body's fields, as Steward's POST and PUT webhooks send them", async () => {
    const { url, calls } = await catcher();

    const status = await send(
      `${url}/reload-task-failure`,
      "POST",
      JSON.stringify({ event: "Qlik Sense reload failed", taskName: "Reload Sales", tags: ["a"] }),
    );

    expect(status).toBe(204);
    expect(calls).toEqual([
      {
        method: "POST",
        path: "/reload-task-failure",
        fields: { event: "Qlik Sense reload failed", taskName: "Reload Sales", tags: '["a"]' },
      },
    ]);
  });

  it("hands over the query's fields of a GET", async () => {
    const { url, calls } = await catcher();

    await send(`${url}/hook?event=Qlik%20Sense%20reload%20aborted&taskName=Reload%20Sales`, "GET");

    expect(calls[0]).toEqual({
      method: "GET",
      path: "/hook",
      fields: { event: "Qlik Sense reload aborted", taskName: "Reload Sales" },
    });
  });

  it("shows a body that is not a JSON object as a short preview without control characters", async () => {
    const { url, calls } = await catcher();

    await send(`${url}/a`, "POST", `not json\u0000\n${"x".repeat(500)}`);
    await send(`${url}/b`, "POST", "[1,2]");

    expect(calls.map((call) => [call.path, call.fields, call.preview])).toEqual([
      ["/a", {}, `not json${"x".repeat(192)}`],
      ["/b", {}, "[1,2]"],
    ]);
  });

  it("answers 413 to a body over 64 KiB, still shows the call, and goes on catching", async () => {
    const { url, calls } = await catcher();

    const status = await send(`${url}/big`, "POST", Buffer.alloc(MAX_CAUGHT_BODY_BYTES + 1, "a"));
    const next = await send(`${url}/next`, "POST", "{}");

    expect(status).toBe(413);
    expect(calls[0]).toEqual({
      method: "POST",
      path: "/big",
      fields: {},
      preview: `a body over ${MAX_CAUGHT_BODY_BYTES} bytes (answered 413)`,
    });
    expect(next).toBe(204);
    expect(calls[1]?.path).toBe("/next");
  });
});
