/**
 * The WebhookClient contract (core/alerts/webhook/webhook-client.ts): every adapter runs this one
 * suite (see webhook-client.test.ts) against a loopback capture server standing in for an
 * operator's webhook. GET carries the payload as query parameters (null as an empty value), POST
 * and PUT as a JSON body with the values' own types; a call resolves on any 2xx answer and
 * rejects otherwise: on a refusal naming the status, when nothing listens, and when no answer
 * comes within `timeoutMs`, whatever the method. No rejection names the URL, which may hold a key.
 */
import { describe, expect, it } from "vitest";
import type { WebhookCall, WebhookClient } from "../../core/alerts/index.ts";
import { freePort } from "../helpers/free-port.ts";
import { captureServerForSuite } from "../helpers/suite-capture-server.ts";
import { timed } from "../helpers/timed.ts";

const TIMEOUT_MS = 300;
const PAYLOAD = { event: 'Reload "Sales" failed ✓', count: 3, expired: false, date: null };

export function describeWebhookClientContract(name: string, create: () => WebhookClient): void {
  describe(`WebhookClient contract: ${name}`, () => {
    const server = captureServerForSuite(200);
    const call = (method: WebhookCall["method"], url = `${server.url}/hook?key=secret-key`): WebhookCall => ({
      url,
      method,
      payload: PAYLOAD,
      timeoutMs: TIMEOUT_MS,
    });

    it("sends GET's payload as query parameters beside the URL's own, null as an empty value", async () => {
      await create().call(call("GET"));

      const [request] = server.requests;
      expect(request?.method).toBe("GET");
      const url = new URL(request?.path ?? "", "http://x");
      expect(url.pathname).toBe("/hook");
      expect(Object.fromEntries(url.searchParams)).toEqual({
        key: "secret-key",
        event: 'Reload "Sales" failed ✓',
        count: "3",
        expired: "false",
        date: "",
      });
      expect(server.requests).toHaveLength(1);
    });

    it("sends POST's and PUT's payload as a JSON body with the values' own types", async () => {
      await create().call(call("POST"));
      await create().call(call("PUT"));

      expect(server.requests.map((request) => request.method)).toEqual(["POST", "PUT"]);
      for (const request of server.requests) {
        expect(request.headers["content-type"]).toMatch(/^application\/json/);
        expect(JSON.parse(request.body)).toEqual(PAYLOAD);
      }
    });

    it("resolves for any 2xx answer and rejects any other naming the status, never the URL", async () => {
      for (const status of [200, 201, 204]) {
        server.respondWith(status);
        await expect(create().call(call("POST"))).resolves.toBeUndefined();
      }
      for (const status of [301, 404, 500]) {
        server.respondWith(status);
        const { error } = await timed(create().call(call("POST")));
        expect(String(error)).toContain(String(status));
        expect(String(error)).not.toContain("secret-key");
      }
    });

    it("rejects at once, without the URL, when nothing listens there", async () => {
      const url = `http://127.0.0.1:${await freePort()}/hook?key=secret-key`;
      const { error, elapsedMs } = await timed(create().call(call("POST", url)));
      expect(error).toBeInstanceOf(Error);
      expect(String(error)).not.toContain("secret-key");
      expect(elapsedMs).toBeLessThan(TIMEOUT_MS * 5);
    });

    it("rejects when no answer comes within timeoutMs, whatever the method", async () => {
      server.respondWith("no answer");
      for (const method of ["GET", "POST", "PUT"] as const) {
        const { error, elapsedMs } = await timed(create().call(call(method)));
        expect(String(error)).toMatch(new RegExp(`no answer within ${TIMEOUT_MS} ms`));
        expect(elapsedMs).toBeLessThan(TIMEOUT_MS * 5);
      }
    });
  });
}
