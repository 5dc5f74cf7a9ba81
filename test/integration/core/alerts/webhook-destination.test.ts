/**
 * Outgoing webhooks through the webhook client to capture servers of ours (plain and TLS): Butler's
 * payload as query parameters for GET and as JSON for POST and PUT, a time limit on every method,
 * one failing webhook never skipping the others, one rate limit per task for the whole list, and
 * an endpoint whose certificate is signed by the operator's own CA.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhookClient } from "../../../../core/adapters/http-clients/webhook-client.ts";
import { createWebhookDestination } from "../../../../core/alerts/webhook/webhook-destination.ts";
import { generateThrowawayPki } from "../../../../local/simulated-platform/throwaway-pki.ts";
import { admitted } from "../../../helpers/admitted-destination.ts";
import { webhookSections } from "../../../helpers/alert-configs.ts";
import { type CaptureServer, startCaptureServer } from "../../../helpers/capture-server.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { captureServerForSuite } from "../../../helpers/suite-capture-server.ts";
import { failedReloadAlert, LINKS } from "../../../helpers/task-alerts.ts";

const server = captureServerForSuite(200);

function webhooks(webhookList: unknown[], options: { timeoutSeconds?: number; rateLimit?: number } = {}) {
  const config = webhookSections({
    enable: true,
    timeoutSeconds: options.timeoutSeconds ?? 5,
    reloadTaskFailure: { rateLimit: options.rateLimit ?? 0, webhooks: webhookList },
  });
  const logger = recordingLogger();
  const { rateLimit, ...destination } = admitted(
    createWebhookDestination(config, {
      client: createWebhookClient(),
      logger,
      view: { links: LINKS, hostName: "sense.example.com", version: "test" },
    }),
  );
  return { destination, logger, rateLimit };
}

const PAYLOAD = {
  event: "Qlik Sense reload failed",
  hostName: "sense-node-2",
  user: "LAB\\sa_scheduler",
  taskName: "Reload Sales dashboard",
  taskId: "0c9ad0f6-1b2c-4d5e-8f90-a1b2c3d4e5f6",
  appName: "Sales dashboard",
  appId: "7d2b9e10-3c4d-4e5f-9a0b-c1d2e3f4a5b6",
  appOwnerName: "Ada Owner",
  appOwnerUserDirectory: "LAB",
  appOwnerUserId: "ada",
  appOwnerEmail: "ada.owner@example.com",
  logTimeStamp: "2026-06-20 14:00:03,912",
  logLevel: "ERROR",
  executionId: "e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b",
  logMessage: "Task finished with state FinishedFail",
};

describe("webhook alert: methods and payload", () => {
  it("sends the fields as query parameters with GET and as a JSON body with POST and PUT", async () => {
    const { destination } = webhooks([
      { description: "get", webhookURL: `${server.url}/get?existing=1`, httpMethod: "get" },
      { description: "post", webhookURL: `${server.url}/post`, httpMethod: "POST" },
      { description: "put", webhookURL: `${server.url}/put`, httpMethod: "Put" },
    ]);
    expect(await destination.send(failedReloadAlert())).toEqual({ outcome: "sent", messages: 3 });
    const [get, post, put] = server.requests;
    expect(get?.method).toBe("GET");
    const query = new URL(get?.path ?? "", "http://x").searchParams;
    expect(Object.fromEntries(query)).toEqual({ existing: "1", ...PAYLOAD });
    for (const [request, method] of [
      [post, "POST"],
      [put, "PUT"],
    ] as const) {
      expect(request?.method).toBe(method);
      expect(request?.headers["content-type"]).toBe("application/json");
      expect(JSON.parse(request?.body ?? "")).toEqual(PAYLOAD);
    }
  });

  it("sends user:pass@ of the URL as Basic authentication, as Butler did, and never puts them in the path", async () => {
    const url = new URL(`${server.url}/hook`);
    url.username = "ops";
    url.password = "s3cret:pw";
    const { destination } = webhooks([{ description: "basic", webhookURL: url.href, httpMethod: "POST" }]);

    expect(await destination.send(failedReloadAlert())).toEqual({ outcome: "sent", messages: 1 });

    const [request] = server.requests;
    expect(request?.headers.authorization).toBe(`Basic ${Buffer.from("ops:s3cret:pw").toString("base64")}`);
    expect(request?.path).toBe("/hook");
  });
});

describe("webhook alert: failures and the rate limit", () => {
  it("calls every webhook when one fails, logs it by description and fails with the count", async () => {
    server.respondWith((request) => (request.path.startsWith("/refused") ? 500 : 200));
    const { destination, logger } = webhooks([
      { description: "refuser", webhookURL: `${server.url}/refused?token=s3cret` },
      { description: "nobody", webhookURL: "http://127.0.0.1:9/closed" },
      { description: "fine", webhookURL: `${server.url}/fine` },
    ]);
    const error = await destination.send(failedReloadAlert()).catch((e: Error) => e);
    expect(String(error)).toContain("2 of 3 webhooks failed (1 called)");
    expect(String(error)).toContain("refuser: the webhook answered HTTP 500");
    expect(String(error)).not.toContain("s3cret");
    expect(server.requests.map((r) => r.path.split("?")[0])).toEqual(["/refused", "/fine"]);
    expect(logger.at("warn").map((e) => e.fields?.webhook)).toEqual(["refuser", "nobody"]);
  });

  it("gives up on a webhook that does not answer after timeoutSeconds, for POST as for GET", async () => {
    server.respondWith("no answer");
    for (const httpMethod of ["POST", "PUT", "GET"]) {
      const { destination } = webhooks([{ webhookURL: `${server.url}/slow`, httpMethod }], {
        timeoutSeconds: 1,
      });
      const started = Date.now();
      await expect(destination.send(failedReloadAlert())).rejects.toThrow(/no answer within 1000 ms/);
      expect(Date.now() - started).toBeLessThan(3000);
    }
  });

  it("calls the list once per task within rateLimit", async () => {
    const { destination, rateLimit } = webhooks(
      [{ webhookURL: `${server.url}/a` }, { webhookURL: `${server.url}/b` }],
      { rateLimit: 300 },
    );
    await destination.send(failedReloadAlert());
    expect((await destination.send(failedReloadAlert())).outcome).toBe("suppressed");
    expect(rateLimit.suppressed).toBe(1);
    expect(server.requests).toHaveLength(2);
  });
});

describe("webhook alert: an endpoint with the operator's own CA", () => {
  let tlsServer: CaptureServer;
  let caFile: string;
  let otherCaFile: string;

  beforeAll(async () => {
    const pki = await generateThrowawayPki({ serverNames: ["127.0.0.1"] });
    const other = await generateThrowawayPki({ serverNames: ["127.0.0.1"] });
    const directory = mkdtempSync(join(tmpdir(), "steward-webhook-ca-"));
    caFile = join(directory, "ca.pem");
    otherCaFile = join(directory, "other-ca.pem");
    writeFileSync(caFile, pki.ca.cert);
    writeFileSync(otherCaFile, other.ca.cert);
    tlsServer = await startCaptureServer({ tls: pki.server });
    tlsServer.respondWith(200);
  });
  afterAll(async () => {
    await tlsServer.stop();
  });

  it("trusts the endpoint with the configured CA and refuses it without, or with another CA", async () => {
    const url = `${tlsServer.url}/secure`;
    const trusted = webhooks([{ webhookURL: url, cert: { enable: true, certCA: caFile } }]);
    expect((await trusted.destination.send(failedReloadAlert())).outcome).toBe("sent");
    expect(tlsServer.requests).toHaveLength(1);

    const noCa = webhooks([{ description: "no CA", webhookURL: url }]);
    await expect(noCa.destination.send(failedReloadAlert())).rejects.toThrow(/no CA: the call failed: \w+/);
    const wrongCa = webhooks([{ webhookURL: url, cert: { enable: true, certCA: otherCaFile } }]);
    await expect(wrongCa.destination.send(failedReloadAlert())).rejects.toThrow(/the call failed/);
    const missing = webhooks([{ webhookURL: url, cert: { enable: true, certCA: `${caFile}.gone` } }]);
    await expect(missing.destination.send(failedReloadAlert())).rejects.toThrow(/cannot be read \(ENOENT\)/);
    expect(tlsServer.requests).toHaveLength(1);
  });
});
