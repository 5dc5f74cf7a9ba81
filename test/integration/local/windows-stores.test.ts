/**
 * `steward start` as a Windows operator runs it from source, proven with the Windows node.exe under
 * Wine (wine.ts): the bundle `npm run build` makes (dist/main.mjs, its node_modules reached through
 * Wine's drive Z:) on a configuration with Windows paths. Before directory syncs were skipped on
 * Windows, the key-value store never opened (every call 503, `EPERM: operation not permitted,
 * fsync`), the ingest API answered 503 for its first 15 s, the schedule store failed its first
 * write, and Node warned `Closing file descriptor 3 on garbage collection`. Now: the stores and the
 * durable queue answer from the first call, the acknowledged event reaches Parquet, the REST file
 * API works on drive paths and refuses an alternate data stream, the kernel's UDP drops say "not
 * available on this platform" instead of a 0, and after a hard kill the next start serves what was
 * acknowledged. Wine does not show a service stop or NTFS itself; the Windows smoke suite and the
 * handbook's Windows page say what that leaves unproven.
 */
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundle } from "../../../bin/bundle.mjs";
import { NODE_FLAGS } from "../../../bin/node-flags.mjs";
import { until } from "../../helpers/eventually.ts";
import { freePort } from "../../helpers/free-port.ts";
import { eventWithId, postEvent } from "../../helpers/ingest-client.ts";
import type { StewardProcess } from "../../helpers/steward-process.ts";
import { suiteScratchDirectory } from "../../helpers/suite-scratch-directory.ts";
import { onDriveZ, skipWithoutWindowsNode, spawnWindowsNode } from "../../helpers/wine.ts";

const skip = skipWithoutWindowsNode("steward start under Wine");
const scratch = suiteScratchDirectory("steward-windows-stores-");
const MAIN = join(import.meta.dirname, "..", "..", "..", "dist", "main.mjs");

const ports = { ingest: 0, rest: 0, udp: 0, scrape: 0, ui: 0 };
let dir = "";
let steward: StewardProcess | undefined;
let starts = 0;

/** The configuration, every path in it a Windows path. */
function writeConfig(): void {
  const files = onDriveZ(join(dir, "files"));
  writeFileSync(
    join(dir, "steward.yaml"),
    `Service:
  fileLogging: true
  logDirectory: .\\log
  auditEvents:
    port: ${ports.ingest}
    queue:
      directory: .\\data\\audit-queue
    destination:
      type: parquet
      parquet:
        exportDirectory: .\\exports\\parquet
        writeFrequency: 200
  restServer:
    port: ${ports.rest}
    endpointsEnable:
      fileCopy: true
  fileOperations:
    copyApprovedDirectories:
      - fromDirectory: '${files.toUpperCase()}\\FROM'
        toDirectory: '${files}\\to'
  keyValueStore:
    storeFile: .\\data\\key-values.json
  scheduler:
    storeFile: .\\data\\schedules.yaml
  userEvents:
    enable: true
    udpServerConfig:
      serverHost: 127.0.0.1
      portUserActivityEvents: ${ports.udp}
  scrapeEndpoint:
    enable: true
    port: ${ports.scrape}
  configVisualisation:
    enable: true
    port: ${ports.ui}
`,
  );
}

/** `node.exe dist\main.mjs start` in the working directory, resolved once it is ready. */
async function start(): Promise<StewardProcess> {
  starts++;
  const proc = spawnWindowsNode([...NODE_FLAGS, onDriveZ(MAIN), "start", "--config", "steward.yaml"], {
    cwd: dir,
    outputFile: join(dir, `output-${starts}.txt`),
  });
  steward = proc;
  await proc.waitFor(/steward ready/, 60_000);
  return proc;
}

const rest = (path: string, init?: RequestInit) => fetch(`http://127.0.0.1:${ports.rest}${path}`, init);
const postJson = (body: unknown, method = "POST"): RequestInit => ({
  method,
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

beforeAll(async () => {
  if (skip) return;
  dir = scratch.fresh("steward");
  for (const name of Object.keys(ports) as (keyof typeof ports)[]) ports[name] = await freePort();
  mkdirSync(join(dir, "files", "from"), { recursive: true });
  writeFileSync(join(dir, "files", "from", "a.qvd"), "QVD");
  writeConfig();
  bundle("local/cli/main.ts");
  await start();
}, 120_000);

afterAll(() => {
  steward?.child.kill("SIGKILL");
});

describe.skipIf(skip)("steward start under the Windows node.exe (Wine)", () => {
  it("answers the ingest API, the key-value store and the schedule store from the first call", async () => {
    const accepted = await postEvent(
      `http://127.0.0.1:${ports.ingest}/api/v1/audit-event`,
      eventWithId(randomUUID()),
    );
    const set = await rest("/v4/keyvalues/team", postJson({ key: "k1", value: "v1", ttl: 0 }));
    const got = await rest("/v4/keyvalues/team?key=k1");
    const schedule = await rest(
      "/v4/schedules",
      postJson({
        name: "nightly",
        cronSchedule: "0 30 2 * * *",
        timezone: "Europe/Stockholm",
        platformTaskId: "3fa85f64-5717-4562-b3fc-2c963f66afa6",
        startupState: "started",
        tags: [],
      }),
    );

    expect(accepted.status).toBe(202);
    expect(set.status).toBe(201);
    expect(await got.json()).toEqual({ namespace: "team", key: "k1", value: "v1" });
    expect(schedule.status).toBe(201);
    const output = (steward as StewardProcess).output();
    expect(output).not.toMatch(/ error: |EPERM|Closing file descriptor/);
  });

  it("writes the acknowledged event to Parquet and logs to a daily file, under Windows paths", async () => {
    const parquet = join(dir, "exports", "parquet");
    // The export directory is made by the first write, which may come after the first look: until
    // then there is nothing to list.
    await until(
      () =>
        existsSync(parquet) &&
        readdirSync(parquet, { recursive: true }).some((name) => String(name).endsWith(".parquet")),
      15_000,
    );
    expect(
      readdirSync(join(dir, "log")).filter((name) => /^steward\.\d{4}-\d\d-\d\d\.log$/.test(name)),
    ).toHaveLength(1);
  });

  it("copies on drive paths through the REST file API and refuses an alternate data stream", async () => {
    const files = onDriveZ(join(dir, "files"));
    const copied = await rest(
      "/v4/filecopy",
      postJson({ fromFile: `${files}\\from\\a.qvd`, toFile: `${files}\\to\\2026\\a.qvd` }, "PUT"),
    );
    const stream = await rest(
      "/v4/filecopy",
      postJson({ fromFile: `${files}\\from\\a.qvd:hidden`, toFile: `${files}\\to\\b.qvd` }, "PUT"),
    );

    expect(copied.status).toBe(201);
    expect(readdirSync(join(dir, "files", "to", "2026"))).toEqual(["a.qvd"]);
    expect(stream.status).toBe(400);
    expect(((await stream.json()) as { message: string }).message).toContain("alternate data stream");
  });

  it("says the kernel's UDP drops are not available on this platform, on /status and in /metrics", async () => {
    const status = (await (await fetch(`http://127.0.0.1:${ports.ui}/status`)).json()) as {
      udpQueues: Record<string, { kernelDrops: unknown }>;
    };
    const metrics = await (await fetch(`http://127.0.0.1:${ports.scrape}/metrics`)).text();

    expect(status.udpQueues.user_events?.kernelDrops).toEqual({
      dropped: null,
      reason: "the operating system (win32) does not report drops per socket",
      notOnThisPlatform: true,
    });
    expect(metrics).toMatch(
      /^# HELP steward_udp_messages_total .*dropped_kernel: not available on this platform/m,
    );
    expect(metrics).not.toContain('outcome="dropped_kernel"');
  });

  it("serves what was acknowledged after a hard kill and a new start", async () => {
    const killed = steward as StewardProcess;
    killed.child.kill("SIGKILL");
    await killed.exited();
    const restarted = await start();

    expect(await (await rest("/v4/keyvalues/team?key=k1")).json()).toEqual({
      namespace: "team",
      key: "k1",
      value: "v1",
    });
    expect(await (await rest("/v4/schedules")).json()).toEqual([
      expect.objectContaining({ name: "nightly" }),
    ]);
    expect(restarted.output()).not.toMatch(/ error: |EPERM|Closing file descriptor/);
  }, 90_000);
});
