/**
 * Where `steward simulate-platform` writes its configuration, run in process: standard output
 * holds the configuration alone (so `> steward-sim.yaml` gives a file Steward reads), or
 * `--write-config FILE` writes it there, replacing only a file simulate-platform wrote; with
 * `--task-events` it switches task events on and alerts failed and aborted runs to the simulator's
 * webhook catcher, whose calls are logged on standard error.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseConfig } from "../../../../core/config/index.ts";
import { runCli } from "../../../../local/cli/cli.ts";
import {
  SNIPPET_FIRST_LINE,
  stewardConfigSnippet,
} from "../../../../local/cli/simulated-platform-snippet.ts";
import { until } from "../../../helpers/eventually.ts";
import { freePort } from "../../../helpers/free-port.ts";
import { scratchDirectory } from "../../../helpers/per-test-environment.ts";
import { exitCode, type RecordingCliIo, recordingCliIo } from "../../../helpers/recording-cli-io.ts";

const freshDir = () => scratchDirectory("steward-simulate-output-");

/** Runs simulate-platform in process with `args`; stops it after `look` whatever happens. */
async function whileRunning(args: readonly string[], look: (io: RecordingCliIo) => Promise<void> | void) {
  const io = recordingCliIo(freshDir());
  const result = await runCli(["simulate-platform", "--port", "0", "--generate-certs", ...args], io);
  if (!("running" in result)) throw new Error(`expected it to run:\n${io.err()}`);
  try {
    await look(io);
  } finally {
    await result.running.parts.stop();
    await result.running.logger.close();
  }
}

function validConfig(text: string) {
  const parsed = parseConfig(parse(text));
  if (!parsed.ok) throw new Error(parsed.problems.map((p) => `${p.path}: ${p.message}`).join("\n"));
  return parsed.config;
}

describe("simulate-platform's standard output", () => {
  it("is the configuration alone, with the status page; what a person reads goes to standard error", async () => {
    await whileRunning([], (io) => {
      const config = validConfig(io.out());
      expect(io.out().startsWith(`${SNIPPET_FIRST_LINE}\n`)).toBe(true);
      expect(config.configVisualisation).toMatchObject({ enable: true, host: "127.0.0.1", port: 3100 });
      expect(io.err()).toMatch(/^Simulated platform: 1 server listening/);
      expect(io.err()).toMatch(/save it with `> steward-sim\.yaml`/);
      expect(io.err()).toMatch(/Stop the simulated platform with Ctrl-C\.\n$/);
    });
  });

  it("with --task-events, switches task events on and sends failed and aborted runs to the catcher, whose calls are logged", async () => {
    const udpPort = await freePort();
    await whileRunning(["--task-events", `127.0.0.1:${udpPort}`], async (io) => {
      const config = validConfig(io.out());
      expect(config.taskEvents).toMatchObject({
        enable: true,
        udpServerConfig: { serverHost: "127.0.0.1", portTaskEvents: udpPort },
      });
      const failureHook = config.webhookNotification.reloadTaskFailure.webhooks[0]?.webhookURL ?? "";
      const abortedHook = config.webhookNotification.reloadTaskAborted.webhooks[0]?.webhookURL ?? "";
      expect(config.webhookNotification.enable).toBe(true);
      expect(failureHook).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/reload-task-failure$/);
      expect(abortedHook).toBe(failureHook.replace("failure", "aborted"));
      expect(io.err()).toContain(`webhook catcher at ${new URL(failureHook).origin}/`);

      const answer = await fetch(failureHook, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          event: "Qlik Sense reload failed",
          taskName: "Reload Sales",
          hostName: "qs-node1",
        }),
      });

      expect(answer.status).toBe(204);
      await until(() => io.err().includes("webhook call caught"), 2000);
      expect(io.err()).toMatch(
        /info: webhook call caught method=POST path=\/reload-task-failure event="Qlik Sense reload failed" taskName="Reload Sales" fields=3\n/,
      );
      expect(io.out()).not.toContain("webhook call caught");
    });
  });
});

describe("simulate-platform --write-config", () => {
  it("writes the configuration to the file and nothing to standard output", async () => {
    await whileRunning(["--write-config", "steward-sim.yaml"], (io) => {
      const written = readFileSync(join(io.cwd, "steward-sim.yaml"), "utf8");
      expect(validConfig(written).scrapeEndpoint.enable).toBe(true);
      expect(io.out()).toBe("");
      expect(io.err()).toContain(
        `Configuration written to ${join(io.cwd, "steward-sim.yaml")}: run \`npx steward start --config steward-sim.yaml\``,
      );
    });
  });

  it("replaces a file it wrote, and refuses with exit 1 to replace any other", async () => {
    const dir = freshDir();
    writeFileSync(join(dir, "mine.yaml"), `${stewardConfigSnippet(snippetOptions)}`);
    writeFileSync(join(dir, "steward.yaml"), "Service:\n  logLevel: info\n");
    const own = recordingCliIo(dir);
    const replaced = await runCli(
      ["simulate-platform", "--port", "0", "--generate-certs", "--write-config", "mine.yaml"],
      own,
    );
    if (!("running" in replaced)) throw new Error(`expected it to run:\n${own.err()}`);
    await replaced.running.parts.stop();
    await replaced.running.logger.close();

    const other = recordingCliIo(dir);
    const refused = await runCli(
      ["simulate-platform", "--port", "0", "--write-config", "steward.yaml"],
      other,
    );

    expect(readFileSync(join(dir, "mine.yaml"), "utf8")).toContain(join(dir, "simulated-platform-certs"));
    expect(exitCode(refused)).toBe(1);
    expect(other.err()).toBe(
      `steward: ${join(dir, "steward.yaml")} exists and was not written by simulate-platform; ` +
        "name another file with --write-config, or remove it\n",
    );
    expect(readFileSync(join(dir, "steward.yaml"), "utf8")).toBe("Service:\n  logLevel: info\n");
  });
});

const snippetOptions = {
  host: "127.0.0.1",
  ports: [4747],
  files: { clientCert: "/old/client.pem", clientKey: "/old/client_key.pem", ca: "/old/root.pem" },
};
