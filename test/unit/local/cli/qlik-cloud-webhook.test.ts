/**
 * `steward qlik-cloud webhook --tenant NAME --url PUBLIC_URL [--dry-run]`, run in process against
 * simulated tenants: it creates the tenant's webhook through the core API with the event types
 * Steward handles and the configured secret, updates that same webhook when run again, falls back
 * to the v1 API on a tenant without the core one, prints only the request with `--dry-run`
 * (secret masked, nothing changed), and fails with the tenant's answer or a clear reason.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { runCli } from "../../../../local/cli/cli.ts";
import type { SimulatedTenant } from "../../../../local/simulated-cloud/simulated-tenant.ts";
import {
  type SimulatedCloud,
  startSimulatedCloud,
} from "../../../../local/simulated-cloud/start-simulated-cloud.ts";
import { scratchDirectory } from "../../../helpers/per-test-environment.ts";
import { exitCode, recordingCliIo } from "../../../helpers/recording-cli-io.ts";

const PUBLIC_URL = "https://steward.example.com/api/v1/qlik-cloud/webhooks/sim-a";

let cloud: SimulatedCloud;
let tenant: SimulatedTenant;
beforeAll(async () => {
  cloud = await startSimulatedCloud({ tenants: 1 });
  tenant = cloud.tenants[0] as SimulatedTenant;
});
afterAll(() => cloud.stop());
beforeEach(() => {
  tenant.state.webhooks.clear();
  tenant.state.coreWebhooks = true;
});

function configDir(clientSecret = tenant.fixture.clientSecret): string {
  const dir = scratchDirectory("steward-cloud-webhook-cli-");
  const service = {
    qlikCloud: {
      enable: true,
      tenants: [
        {
          name: "sim-a",
          url: tenant.url,
          auth: { oauth: { clientId: tenant.fixture.clientId, clientSecret } },
          webhook: { secret: tenant.fixture.webhookSecret },
        },
      ],
    },
  };
  writeFileSync(join(dir, "steward.yaml"), stringify({ Service: service }));
  return dir;
}

async function webhookCommand(dir: string, ...more: string[]) {
  const io = recordingCliIo(dir);
  const args = [
    "qlik-cloud",
    "webhook",
    "--config",
    "steward.yaml",
    "--tenant",
    "sim-a",
    "--url",
    PUBLIC_URL,
    ...more,
  ];
  return { code: exitCode(await runCli(args, io)), out: io.out(), err: io.err() };
}

describe("steward qlik-cloud webhook", () => {
  it("creates the tenant's webhook through the core API, with the handled event types and the secret", async () => {
    const { code, out } = await webhookCommand(configDir());

    const [webhook] = [...tenant.state.webhooks.values()];
    expect(code).toBe(0);
    expect(webhook).toMatchObject({
      name: "Steward (sim-a)",
      url: PUBLIC_URL,
      eventTypes: ["com.qlik.v1.reload.finished"],
      level: "tenant",
      enabled: true,
      secret: tenant.fixture.webhookSecret,
      api: "core",
    });
    expect(out).toBe(
      `Created webhook ${webhook?.id} on tenant sim-a (/api/core/webhooks): ${PUBLIC_URL}, event types com.qlik.v1.reload.finished, signed with qlikCloud.tenants[].webhook.secret\n`,
    );
  });

  it("updates the same webhook when run again, turning it back on", async () => {
    const dir = configDir();
    await webhookCommand(dir);
    const [created] = [...tenant.state.webhooks.values()];
    if (created === undefined) expect.fail("no webhook created");
    created.enabled = false;
    created.eventTypes = ["com.qlik.app.created"];

    const { code, out } = await webhookCommand(dir);

    expect(code).toBe(0);
    expect(tenant.state.webhooks.size).toBe(1);
    expect(tenant.state.webhooks.get(created.id)).toMatchObject({
      enabled: true,
      eventTypes: ["com.qlik.v1.reload.finished"],
    });
    expect(out).toMatch(new RegExp(`^Updated webhook ${created.id} on tenant sim-a`));
  });

  it("falls back to the v1 API on a tenant without the core one", async () => {
    tenant.state.coreWebhooks = false;
    const { code, out } = await webhookCommand(configDir());
    expect(code).toBe(0);
    expect([...tenant.state.webhooks.values()][0]?.api).toBe("v1");
    expect(out).toContain("(/api/v1/webhooks)");
  });

  it("prints only the request with --dry-run, the secret masked, and changes nothing", async () => {
    const { code, out } = await webhookCommand(configDir(), "--dry-run");

    expect(code).toBe(0);
    expect(tenant.state.webhooks.size).toBe(0);
    expect(out).toContain(
      `Would create a webhook on tenant sim-a with:\nPOST ${tenant.url}/api/core/webhooks\n`,
    );
    expect(out).toContain('"secret": "**********"');
    expect(out).not.toContain(tenant.fixture.webhookSecret);
  });

  it("fails with the tenant's answer, or the reason, and exit 1", async () => {
    const refused = await webhookCommand(configDir("wrong-secret"));
    expect(refused).toMatchObject({ code: 1, out: "" });
    expect(refused.err).toBe(
      "steward: Qlik Cloud tenant sim-a: POST /oauth/token answered 401: invalid client\n",
    );

    const io = recordingCliIo(configDir());
    const args = [
      "qlik-cloud",
      "webhook",
      "--config",
      "steward.yaml",
      "--tenant",
      "sim-z",
      "--url",
      PUBLIC_URL,
    ];
    expect(exitCode(await runCli(args, io))).toBe(1);
    expect(io.err()).toBe('steward: no tenant "sim-z" in qlikCloud.tenants (there are: sim-a)\n');
  });

  it("notes a URL Qlik would not call or Steward would not take", async () => {
    const io = recordingCliIo(configDir());
    const args = [
      "qlik-cloud",
      "webhook",
      "--config",
      "steward.yaml",
      "--tenant",
      "sim-a",
      "--url",
      "http://10.0.0.1/hook",
      "--dry-run",
    ];
    expect(exitCode(await runCli(args, io))).toBe(0);
    expect(io.err()).toContain("steward: note: Qlik Cloud calls only https URLs of a host name");
    expect(io.err()).toContain(
      "steward: note: Steward takes this tenant's webhooks at /api/v1/qlik-cloud/webhooks/sim-a",
    );
  });
});
