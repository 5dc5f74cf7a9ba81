/**
 * The Windows smoke suite: steward.exe from the unpacked Windows archive of `npm run package`,
 * run under Wine (test/helpers/wine.ts says what Wine needs) on a configuration whose every path
 * is a Windows drive path on C:. It starts, takes audit events through the durable queue into
 * Parquet, serves the REST file API between approved directories on C:, takes UDP user events
 * to the broker (Debian's mosquitto), and stops on Ctrl+C (what the service wrapper sends) within 10 s with exit status 0; killed hard
 * under load and started again, it has every acknowledged event in Parquet.
 *
 * What Wine cannot show: the service control manager and the wrapper itself (WinSW is a .NET
 * program; Wine here has no .NET), Ctrl+Break and a closed console (Wine turns no signal into
 * them), NTFS, and requests made with Node's fetch (the observability platform, Teams and Slack,
 * the chat webhook, the heartbeat): Wine 8 lacks the TCP keep-alive socket option fetch sets, so
 * every such connection fails there with "connect UNKNOWN". The broker, InfluxDB, webhook and
 * platform clients use node:http(s) or plain sockets instead. The wrapper's XML and command lines are tested on Linux
 * (test/unit/local/cli/service-*.test.ts); the handbook's Windows page lists the rest.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { SERVICE_VERSION } from "../../../core/version.ts";
import { parquetEventIds } from "../../helpers/audit-destination-contents.ts";
import { freePort } from "../../helpers/free-port.ts";
import { eventWithId, postEvent } from "../../helpers/ingest-client.ts";
import { type Mosquitto, skipWithoutMosquitto, startMosquitto } from "../../helpers/mosquitto.ts";
import {
  archiveMissing,
  skipWithout,
  type UnpackedRelease,
  unpackRelease,
} from "../../helpers/release-archive.ts";
import { sendDatagrams } from "../../helpers/send-datagrams.ts";
import type { StewardProcess } from "../../helpers/steward-process.ts";
import {
  type DriveCFolder,
  onDriveC,
  spawnUnderWine,
  stopWine,
  wineMissing,
  winePrefix,
} from "../../helpers/wine.ts";

const skip =
  skipWithout("the Windows smoke suite (steward.exe under Wine)", [
    wineMissing(),
    archiveMissing("win-x64"),
  ]) || skipWithoutMosquitto();

/** How long steward.exe may take to say it is ready under Wine on a busy machine. */
const READY_MS = 60_000;
const USER_EVENT =
  "/qseow-proxy-connection/;pro2-win1;Open connection;userdir;user3;AppAccess;/app/a421f4a2-c311-4ef4-ba41-fe2e6a2b0d69;Some text UserAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:58.0) Gecko/20100101 Firefox/58.0'";

let release: UnpackedRelease;
let prefix: string;
let broker: Mosquitto;
beforeAll(async () => {
  if (skip) return;
  prefix = winePrefix();
  release = unpackRelease("win-x64");
  broker = await startMosquitto();
}, 180_000);
afterAll(async () => {
  release?.remove();
  await broker?.stop();
  if (prefix !== undefined) stopWine(prefix);
});

/** A new folder on drive C:, removed when the test finishes. */
function workFolder(): DriveCFolder {
  const folder = onDriveC(prefix, `steward-smoke-${randomUUID().slice(0, 8)}`);
  mkdirSync(folder.linux, { recursive: true });
  onTestFinished(() => rmSync(folder.linux, { recursive: true, force: true, maxRetries: 3 }));
  return folder;
}

/** `steward.exe args` under Wine in `work`, killed when the test finishes. */
function stewardExe(args: string[], work: DriveCFolder, output = "steward-output.txt"): StewardProcess {
  const proc = spawnUnderWine(prefix, join(release.folder, "steward.exe"), args, {
    cwd: work.linux,
    outputFile: join(work.linux, output),
  });
  onTestFinished(() => {
    if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill("SIGKILL");
  });
  return proc;
}

async function oneShot(args: string[], work: DriveCFolder) {
  const proc = stewardExe(args, work, `${args[0]}-output.txt`);
  const { code } = await proc.exited(60_000);
  return { code, output: proc.output() };
}

interface Ports {
  ingest: number;
  rest: number;
  user: number;
}

/** steward.yaml in `work`, every path in it on drive C:. */
function writeConfig(work: DriveCFolder, ports: Ports): void {
  const w = work.windows;
  writeFileSync(
    join(work.linux, "steward.yaml"),
    `Service:
  logLevel: info
  fileLogging: true
  logDirectory: '${w}\\log'
  auditEvents:
    port: ${ports.ingest}
    rateLimit:
      maxPerMinute: 10000000
    queue:
      directory: '${w}\\data\\audit-queue'
    destination:
      enable: true
      type: parquet
      parquet:
        exportDirectory: '${w}\\out\\parquet'
        writeFrequency: 600000
        maxBatchSize: 10000
  restServer:
    port: ${ports.rest}
    endpointsEnable:
      fileCopy: true
      fileDelete: true
  keyValueStore:
    storeFile: '${w}\\data\\key-values.json'
  scheduler:
    storeFile: '${w}\\data\\schedules.yaml'
  fileOperations:
    copyApprovedDirectories:
      - fromDirectory: '${w}\\exports'
        toDirectory: '${w}\\archive'
    deleteApprovedDirectories:
      - '${w}\\archive'
  mqttConfig:
    enable: true
    brokerHost: 127.0.0.1
    brokerPort: ${broker.port}
  userEvents:
    enable: true
    udpServerConfig:
      serverHost: 127.0.0.1
      portUserActivityEvents: ${ports.user}
    sendToMQTT:
      enable: true
`,
  );
}

async function startedIn(work: DriveCFolder): Promise<{ proc: StewardProcess; ports: Ports }> {
  const ports = { ingest: await freePort(), rest: await freePort(), user: await freePort() };
  writeConfig(work, ports);
  const proc = stewardExe(["start", "--config", `${work.windows}\\steward.yaml`], work);
  await proc.waitFor(/steward ready/, READY_MS);
  return { proc, ports };
}

const ingestUrl = (ports: Ports) => `http://127.0.0.1:${ports.ingest}/api/v1/audit-event`;

describe.skipIf(skip)("steward.exe under Wine: one-shot commands", () => {
  it("prints its version, checks a configuration of C: paths, and refuses to install a service its wrapper cannot run, leaving nothing behind", async () => {
    const work = workFolder();
    writeConfig(work, { ingest: 1, rest: 2, user: 3 });

    const version = await oneShot(["--version"], work);
    const checked = await oneShot(["check-config", `${work.windows}\\steward.yaml`], work);
    const install = await oneShot(["service", "install", "--config", `${work.windows}\\steward.yaml`], work);
    const status = await oneShot(["service", "status"], work);

    expect(version).toEqual({ code: 0, output: `steward ${SERVICE_VERSION}\n` });
    expect(checked).toEqual({ code: 0, output: "ok\n" });
    // The wrapper is a .NET program, which Wine cannot run: the install fails and says so.
    expect(install.code).toBe(1);
    expect(install.output).toMatch(
      /^steward: the service wrapper Z:\\.*\\steward-service\.exe could not install service Steward; nothing was installed/,
    );
    expect(status).toEqual({ code: 4, output: "service Steward: not installed\n" });
  }, 180_000);
});

describe.skipIf(skip)("steward.exe under Wine: running", () => {
  it("keeps audit events in Parquet, copies files between approved C: directories, sends a UDP user event to the broker, and stops on Ctrl+C within 10 s with exit 0", async () => {
    // Prepare
    const work = workFolder();
    mkdirSync(join(work.linux, "exports"));
    mkdirSync(join(work.linux, "archive"));
    writeFileSync(join(work.linux, "exports", "report.txt"), "quarter 4");
    const subscriber = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`);
    onTestFinished(() => subscriber.endAsync());
    const topics: string[] = [];
    subscriber.on("message", (topic) => topics.push(topic));
    await subscriber.subscribeAsync("qliksense/#");
    const { proc, ports } = await startedIn(work);
    const rest = (path: string, method: string, body: unknown) =>
      fetch(`http://127.0.0.1:${ports.rest}${path}`, {
        method,
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });

    // Act
    const ids = Array.from({ length: 20 }, () => randomUUID());
    const answers: number[] = [];
    for (const id of ids) answers.push((await postEvent(ingestUrl(ports), eventWithId(id))).status);
    const copied = await rest("/v4/filecopy", "PUT", {
      fromFile: `${work.windows}\\exports\\report.txt`,
      toFile: `${work.windows}\\archive\\report.txt`,
    });
    const outside = await rest("/v4/filecopy", "PUT", {
      fromFile: "C:\\windows\\win.ini",
      toFile: `${work.windows}\\archive\\win.ini`,
    });
    const keyValue = await rest("/v4/keyvalues/smoke", "POST", { key: "k", value: "v" });
    await sendDatagrams(ports.user, [USER_EVENT]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    proc.child.kill("SIGINT");
    const exit = await proc.exited(20_000);

    // Assess
    expect(answers.every((status) => status === 202)).toBe(true);
    expect(copied.status).toBe(201);
    expect(readFileSync(join(work.linux, "archive", "report.txt"), "utf8")).toBe("quarter 4");
    expect(outside.status).toBe(403);
    expect(keyValue.status).toBe(201);
    expect(proc.output()).toMatch(/received SIGINT, stopping/);
    expect({ code: exit.code, withinBudget: exit.ms <= 10_000 }).toEqual({ code: 0, withinBudget: true });
    expect(new Set(await parquetEventIds(join(work.linux, "out", "parquet")))).toEqual(new Set(ids));
    expect(topics).toContain("qliksense/userevent/connection/open");
    const logFiles = readdirSync(join(work.linux, "log")).map((file) =>
      readFileSync(join(work.linux, "log", file), "utf8"),
    );
    expect(logFiles.join("")).toMatch(/steward ready/);
  }, 180_000);

  it("has every acknowledged event in Parquet after a hard kill under load and a restart", async () => {
    // Prepare
    const work = workFolder();
    const first = await startedIn(work);
    const accepted: string[] = [];
    let gone = false;
    const client = async () => {
      while (!gone) {
        const id = randomUUID();
        const { status } = await postEvent(ingestUrl(first.ports), eventWithId(id));
        if (status === 202) accepted.push(id);
        else if (status === 0) gone = true;
      }
    };

    // Act: load, kill as `taskkill /F` does, start again, stop with Ctrl+C
    const clients = Array.from({ length: 4 }, client);
    await new Promise((resolve) => setTimeout(resolve, 1500 + Math.floor(Math.random() * 1500)));
    first.proc.child.kill("SIGKILL");
    await first.proc.exited();
    await Promise.all(clients);
    const second = stewardExe(
      ["start", "--config", `${work.windows}\\steward.yaml`],
      work,
      "second-output.txt",
    );
    await second.waitFor(/steward ready/, READY_MS);
    second.child.kill("SIGINT");
    const stopped = await second.exited(20_000);

    // Assess
    expect(accepted.length).toBeGreaterThan(20);
    expect(stopped.code).toBe(0);
    const stored = new Set(await parquetEventIds(join(work.linux, "out", "parquet")));
    expect(accepted.filter((id) => !stored.has(id))).toEqual([]);
  }, 180_000);
});
