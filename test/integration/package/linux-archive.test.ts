/**
 * The Linux archive of `npm run package` as an operator uses it: unpacked into a folder outside
 * the repository and run with no Node on the PATH and no node_modules anywhere above it. Every
 * command of the CLI runs from the executable (`service` refuses, as on any Linux); `start` takes audit events into the durable queue
 * and Parquet, serves the API explorer's files from inside the executable, answers the health
 * check, and stops on SIGTERM within 10 s with exit status 0; with a cloud store (DynamoDB's
 * stand-in, dynalite) it loads the AWS SDK, which is inside the executable too.
 */
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { SERVICE_VERSION } from "../../../core/version.ts";
import { parquetEventIds } from "../../helpers/audit-destination-contents.ts";
import { butlerSosFixture } from "../../helpers/butler-sos-config.ts";
import { startDynalite } from "../../helpers/dynalite-server.ts";
import { freePort } from "../../helpers/free-port.ts";
import { eventWithId, postEvent } from "../../helpers/ingest-client.ts";
import { freeStewardPorts, writeJsonDestinationConfig } from "../../helpers/json-destination-steward.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import {
  archiveMissing,
  skipWithout,
  type UnpackedRelease,
  unpackRelease,
} from "../../helpers/release-archive.ts";
import { type StewardProcess, spawnCommand } from "../../helpers/steward-process.ts";

const skip = skipWithout("the Linux archive's tests", [archiveMissing("linux-x64")]);

/** No node to fall back on, and none of this process's node options. */
const WITHOUT_NODE = { PATH: "/nonexistent", NODE_OPTIONS: undefined, NODE_PATH: undefined };

let release: UnpackedRelease;
beforeAll(() => {
  if (!skip) release = unpackRelease("linux-x64");
}, 60_000);
afterAll(() => release?.remove());

function steward(args: string[], cwd: string): StewardProcess {
  return spawnCommand(join(release.folder, "steward"), args, { cwd, env: WITHOUT_NODE });
}

async function run(args: string[], cwd: string) {
  const proc = steward(args, cwd);
  const { code } = await proc.exited(30_000);
  return { code, output: proc.output() };
}

describe.skipIf(skip)("the Linux archive, unpacked where there is no Node", () => {
  it("holds the executable, the configuration template, the log-appender files, Node's licence and a README", () => {
    expect(readdirSync(release.folder).sort()).toEqual([
      "NODE-LICENSE.txt",
      "README.txt",
      "config-template.yaml",
      "log-appenders",
      "steward",
    ]);
    expect(readdirSync(join(release.folder, "log-appenders")).sort()).toEqual([
      "engine",
      "proxy",
      "repository",
      "scheduler",
    ]);
    expect(readFileSync(join(release.folder, "README.txt"), "utf8")).toMatch(
      new RegExp(`^Steward ${SERVICE_VERSION} for Linux x64\\n`),
    );
    expect(existsSync(join(release.folder, "node_modules"))).toBe(false);
  });

  it("prints its version and the template it ships, checks a configuration and migrates a Butler SOS one", async () => {
    const dir = scratchDirectory("steward-linux-commands-");
    writeFileSync(join(dir, "butler-sos.yaml"), butlerSosFixture("sample"));
    writeFileSync(join(dir, "bad.yaml"), "Service:\n  logLevel: loud\n");

    const version = await run(["--version"], dir);
    const template = await run(["init-config"], dir);
    const checked = await run(["check-config", join(release.folder, "config-template.yaml")], dir);
    const bad = await run(["check-config", "bad.yaml"], dir);
    const migrated = await run(["migrate-config", "butler-sos.yaml"], dir);

    expect(version).toEqual({ code: 0, output: `steward ${SERVICE_VERSION}\n` });
    expect(template.code).toBe(0);
    expect(template.output).toBe(readFileSync(join(release.folder, "config-template.yaml"), "utf8"));
    expect(checked).toEqual({ code: 0, output: "ok\n" });
    expect(bad.code).toBe(1);
    expect(bad.output).toMatch(/Configuration bad\.yaml is invalid:\n.*logLevel/);
    expect(migrated.output).toMatch(/^Service:/m);
    expect([0, 2]).toContain(migrated.code);
  });

  it("starts, serves the API explorer's files from inside itself, keeps every accepted event, and stops on SIGTERM with 0", async () => {
    // Prepare
    const dir = scratchDirectory("steward-linux-start-");
    const ports = await freeStewardPorts();
    writeJsonDestinationConfig(dir, {
      ports,
      queueDirectory: "./data/audit-queue",
      type: "parquet",
      parquet: { exportDirectory: "./out/parquet", writeFrequency: 600_000 },
    });
    const proc = steward(["start", "--config", "steward.yaml"], dir);
    await proc.waitFor(/steward ready/, 30_000);

    // Act
    const ids = Array.from({ length: 20 }, () => randomUUID());
    const answers = [];
    for (const id of ids) {
      answers.push(
        (await postEvent(`http://127.0.0.1:${ports.ingest}/api/v1/audit-event`, eventWithId(id))).status,
      );
    }
    const css = await fetch(`http://127.0.0.1:${ports.rest}/documentation/assets/swagger-ui.css`);
    const script = await fetch(`http://127.0.0.1:${ports.rest}/documentation/assets/swagger-ui-bundle.js`);
    const health = await run(["healthcheck", "--config", "steward.yaml"], dir);
    proc.child.kill("SIGTERM");
    const exit = await proc.exited(15_000);

    // Assess
    expect(answers.every((status) => status === 202)).toBe(true);
    expect(css.status).toBe(200);
    expect(await css.text()).toContain(".swagger-ui");
    expect(script.status).toBe(200);
    expect((await script.text()).length).toBeGreaterThan(100_000);
    expect(health.code).toBe(0);
    expect(proc.output()).toMatch(/steward \S+ starting .*node=24\./);
    expect(proc.output()).toMatch(/received SIGTERM, stopping/);
    expect({ code: exit.code, withinBudget: exit.ms <= 10_000 }).toEqual({ code: 0, withinBudget: true });
    expect(new Set(await parquetEventIds(join(dir, "out", "parquet")))).toEqual(new Set(ids));
  }, 60_000);

  it("keeps key-values in a cloud table, with the AWS SDK it loads on demand from inside itself", async () => {
    // Prepare
    const dynamo = await startDynalite();
    onTestFinished(() => dynamo.close());
    await dynamo.createTable("key-values", "pk", "sk");
    const dir = scratchDirectory("steward-linux-cloud-");
    const rest = await freePort();
    writeFileSync(
      join(dir, "steward.yaml"),
      `Service:\n  auditEvents:\n    enable: false\n  restServer:\n    port: ${rest}\n  cloud:\n    enable: true\n    region: us-east-1\n    keyValueTable: key-values\n`,
    );
    const proc = spawnCommand(join(release.folder, "steward"), ["start", "--config", "steward.yaml"], {
      cwd: dir,
      env: {
        ...WITHOUT_NODE,
        AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
        AWS_ACCESS_KEY_ID: "test",
        AWS_SECRET_ACCESS_KEY: "test",
        AWS_EC2_METADATA_DISABLED: "true",
      },
    });
    onTestFinished(() => {
      if (proc.child.exitCode === null) proc.child.kill("SIGKILL");
    });
    await proc.waitFor(/steward ready/, 30_000);

    // Act
    const stored = await fetch(`http://127.0.0.1:${rest}/v4/keyvalues/smoke`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key: "k", value: "v" }),
    });
    const read = await fetch(`http://127.0.0.1:${rest}/v4/keyvalues/smoke?key=k`);
    proc.child.kill("SIGTERM");
    const exit = await proc.exited(15_000);

    // Assess
    expect(stored.status).toBe(201);
    expect(await read.json()).toMatchObject({ namespace: "smoke", key: "k", value: "v" });
    expect(exit.code).toBe(0);
  }, 60_000);

  it("refuses the Windows service commands with exit 1", async () => {
    const dir = scratchDirectory("steward-linux-service-");

    const result = await run(["service", "install", "--config", "steward.yaml"], dir);

    expect(result).toEqual({
      code: 1,
      output:
        'steward: steward service runs on Windows only (this is linux); here, run "steward start" under a process manager such as systemd\n',
    });
  });

  it("runs simulate-platform until Ctrl+C", async () => {
    const dir = scratchDirectory("steward-linux-simulate-");

    const proc = steward(["simulate-platform", "--port", "0", "--generate-certs"], dir);
    await proc.waitFor(/https:\/\/127\.0\.0\.1:\d+/, 30_000);
    proc.child.kill("SIGINT");
    const exit = await proc.exited(15_000);

    expect(exit.code).toBe(0);
  }, 60_000);
});
