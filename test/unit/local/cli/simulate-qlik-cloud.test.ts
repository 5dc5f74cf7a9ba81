/**
 * `steward simulate-qlik-cloud`, run in process: standard output is the configuration alone, one
 * check-config accepts, taking in every simulated tenant; each tenant serves its APIs and delivers
 * signed reload events to the URL given, in turn failed, succeeded and canceled, in the three
 * envelopes, some twice; the failed and canceled reloads' alerts go to the simulator's own webhook
 * catcher, which logs each call; `--write-config` replaces only a file it wrote; bad options are
 * refused.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseConfig } from "../../../../core/config/index.ts";
import { runCli } from "../../../../local/cli/cli.ts";
import { parseSimulateQlikCloudOptions } from "../../../../local/cli/simulate-qlik-cloud.ts";
import { CLOUD_SNIPPET_FIRST_LINE } from "../../../../local/cli/simulated-cloud-snippet.ts";
import { until } from "../../../helpers/eventually.ts";
import { scratchDirectory } from "../../../helpers/per-test-environment.ts";
import { exitCode, type RecordingCliIo, recordingCliIo } from "../../../helpers/recording-cli-io.ts";
import { captureServerForSuite } from "../../../helpers/suite-capture-server.ts";

const freshDir = () => scratchDirectory("steward-simulate-cloud-");

async function whileRunning(args: readonly string[], look: (io: RecordingCliIo) => Promise<void> | void) {
  const io = recordingCliIo(freshDir());
  const result = await runCli(["simulate-qlik-cloud", ...args], io);
  if (!("running" in result)) throw new Error(`expected it to run:\n${io.err()}`);
  try {
    await look(io);
  } finally {
    await result.running.parts.stop();
    await result.running.logger.close();
  }
}

describe("steward simulate-qlik-cloud", () => {
  const steward = captureServerForSuite(202);

  it("writes a configuration taking in two tenants, and delivers their signed reload events to --steward", async () => {
    await whileRunning(["--steward", steward.url, "--every", "1"], async (io) => {
      const parsed = parseConfig(parse(io.out()));
      if (!parsed.ok) expect.fail(parsed.problems.map((p) => `${p.path}: ${p.message}`).join("\n"));
      expect(io.out().startsWith(`${CLOUD_SNIPPET_FIRST_LINE}\n`)).toBe(true);
      const { qlikCloud, auditEvents } = parsed.config;
      expect(qlikCloud.tenants.map((tenant) => tenant.name)).toEqual(["sim-a", "sim-b"]);
      expect(auditEvents).toMatchObject({
        enable: true,
        host: "127.0.0.1",
        port: Number(new URL(steward.url).port),
      });

      const token = await fetch(`${qlikCloud.tenants[0]?.url}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          grant_type: "client_credentials",
          client_id: qlikCloud.tenants[0]?.auth.oauth.clientId,
          client_secret: qlikCloud.tenants[0]?.auth.oauth.clientSecret,
        }),
      });
      expect(token.status).toBe(200);

      await until(() => steward.requests.length >= 8, 10_000);
      const calls = steward.requests;
      expect(new Set(calls.map((call) => call.path))).toEqual(
        new Set(["/api/v1/qlik-cloud/webhooks/sim-a", "/api/v1/qlik-cloud/webhooks/sim-b"]),
      );
      expect(calls.every((call) => /^[0-9a-f]{64}$/.test(String(call.headers["qlik-signature"] ?? "")))).toBe(
        true,
      );
      const statuses = calls.map(
        (call) => (JSON.parse(call.body) as { data: { status: string } }).data.status,
      );
      expect(new Set(statuses)).toEqual(new Set(["FAILED", "SUCCEEDED", "CANCELED"]));
      expect(io.err()).toMatch(/reload event sent tenant=sim-a status=FAILED envelope=cloudevents times=1/);
    });
  });

  it("alerts failed and canceled reloads in its configuration to its own webhook catcher, which logs each call", async () => {
    await whileRunning(["--every", "0"], async (io) => {
      const parsed = parseConfig(parse(io.out()));
      if (!parsed.ok) expect.fail(parsed.problems.map((p) => `${p.path}: ${p.message}`).join("\n"));
      const { webhookNotification } = parsed.config;
      expect(webhookNotification.enable).toBe(true);
      const [failure] = webhookNotification.reloadTaskFailure.webhooks;
      const [aborted] = webhookNotification.reloadTaskAborted.webhooks;
      expect(failure?.webhookURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/reload-failure$/);
      expect(aborted?.webhookURL).toBe(failure?.webhookURL.replace(/failure$/, "aborted"));
      expect(io.err()).toContain(
        `Steward alerts the failed and canceled reloads to the webhook catcher at ${failure?.webhookURL.replace(/\/reload-failure$/, "")}/`,
      );

      const call = await fetch(failure?.webhookURL ?? "", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          event: "Qlik Cloud reload failed",
          taskName: "Sales (Qlik Cloud, sim-a)",
          appName: "Sales",
          executionId: "6751a3f0c2b4e81a9d0f1234",
        }),
      });
      expect(call.status).toBe(204);
      await until(() => io.err().includes("webhook call caught"), 5000);
      expect(io.err()).toMatch(
        /webhook call caught method=POST path=\/reload-failure event="?Qlik Cloud reload failed"? taskName="?Sales \(Qlik Cloud, sim-a\)/,
      );
    });
  });

  it("replaces with --write-config only a file it wrote", async () => {
    const dir = freshDir();
    writeFileSync(join(dir, "steward.yaml"), "Service: {}\n");
    const io = recordingCliIo(dir);
    const result = await runCli(
      ["simulate-qlik-cloud", "--every", "0", "--write-config", "steward.yaml"],
      io,
    );
    expect(exitCode(result)).toBe(1);
    expect(io.err()).toBe(
      `steward: ${join(dir, "steward.yaml")} exists and was not written by simulate-qlik-cloud; name another file with --write-config, or remove it\n`,
    );
  });

  it("refuses bad options with the reason", async () => {
    expect(() => parseSimulateQlikCloudOptions({ tenants: "0" }, "/work")).toThrow(
      '--tenants must be a whole number from 1 to 20 (got "0")',
    );
    expect(() => parseSimulateQlikCloudOptions({ steward: "ftp://x" }, "/work")).toThrow(
      /--steward must be the http\(s\) URL/,
    );
    const io = recordingCliIo(freshDir());
    expect(exitCode(await runCli(["simulate-qlik-cloud", "--config", "x.yaml"], io))).toBe(1);
    expect(io.err()).toMatch(/^steward: --config is not an option of simulate-qlik-cloud\n/);
    const misplaced = recordingCliIo(freshDir());
    expect(exitCode(await runCli(["simulate-platform", "--tenants", "3"], misplaced))).toBe(1);
    expect(misplaced.err()).toMatch(/^steward: --tenants is an option of simulate-qlik-cloud only\n/);
  });
});
