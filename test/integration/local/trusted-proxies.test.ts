/**
 * `trustedProxies` through `steward start`: a request that comes from a listed proxy is the
 * client's that its `X-Forwarded-For` names, for the per-client rate limits of the ingest and REST
 * APIs, the WARN naming a client over the limit and the accepted event's `clientIp` (read back
 * from the durable queue's log on disk); from any other peer the header is ignored, so a client
 * cannot choose its own rate-limit budget by sending it.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { validEnvelope } from "../../helpers/audit-envelopes.ts";
import { freePort } from "../../helpers/free-port.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";

const INGEST_TOKEN = "ingest-token-Pq3";

async function startBehind(trustedProxies: string) {
  const dir = scratchDirectory("steward-proxies-");
  const ports = { ingest: await freePort(), rest: await freePort() };
  writeFileSync(
    join(dir, "steward.yaml"),
    `Service:
  auditEvents:
    port: ${ports.ingest}
    apiToken: ${INGEST_TOKEN}
    trustedProxies: ${trustedProxies}
    rateLimit: { maxPerMinute: 1 }
  restServer:
    port: ${ports.rest}
    trustedProxies: ${trustedProxies}
    rateLimit: { maxPerMinute: 1 }
`,
  );
  const steward = await startStewardIn(dir);
  const ping = (client: string) =>
    fetch(`http://127.0.0.1:${ports.rest}/v4/ping`, { headers: { "x-forwarded-for": client } }).then(
      (response) => response.status,
    );
  const post = (client: string) =>
    fetch(`http://127.0.0.1:${ports.ingest}/api/v1/audit-event`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${INGEST_TOKEN}`,
        "x-audit-client-version": "0.3.0",
        "x-forwarded-for": `198.51.100.66, ${client}`,
      },
      body: JSON.stringify(validEnvelope()),
    }).then((response) => response.status);
  /** Every byte the durable queue wrote, as text. */
  const queued = () => {
    const queueDir = join(dir, "data", "audit-queue");
    return readdirSync(queueDir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => readFileSync(join(entry.parentPath, entry.name), "utf8"))
      .join("\n");
  };
  return { steward, ping, post, queued };
}

describe("trustedProxies", () => {
  it("from a trusted proxy, takes the client X-Forwarded-For names: its own budget, its address in the WARN and the event", async () => {
    const { steward, ping, post, queued } = await startBehind("[127.0.0.1]");

    const rest = [await ping("203.0.113.1"), await ping("203.0.113.1"), await ping("203.0.113.2")];
    const ingest = [await post("203.0.113.1"), await post("203.0.113.1"), await post("203.0.113.2")];

    expect(rest).toEqual([200, 429, 200]);
    expect(ingest).toEqual([202, 429, 202]);
    expect(steward.output()).toMatch(/\[rest\] Client over the rate limit: .* ip=203\.0\.113\.1 /);
    expect(steward.output()).toMatch(/\[audit-ingest\] Client over the rate limit: .* ip=203\.0\.113\.1 /);
    expect(queued()).toContain('"clientIp":"203.0.113.1"');
    expect(queued()).toContain('"clientIp":"203.0.113.2"');
    expect(queued()).not.toContain("198.51.100.66");
  });

  it("from any other peer, ignores the header: every client is the peer, in one budget", async () => {
    const { steward, ping, post, queued } = await startBehind("[10.0.0.0/8]");

    const rest = [await ping("203.0.113.1"), await ping("203.0.113.2")];
    const ingest = [await post("203.0.113.1"), await post("203.0.113.2")];

    expect(rest).toEqual([200, 429]);
    expect(ingest).toEqual([202, 429]);
    expect(steward.output()).toMatch(/\[rest\] Client over the rate limit: .* ip=127\.0\.0\.1 /);
    expect(queued()).toContain('"clientIp":"127.0.0.1"');
    expect(queued()).not.toContain("203.0.113.");
  });
});
