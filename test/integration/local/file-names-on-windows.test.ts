/**
 * Every file and directory name Steward creates is one Windows takes as it is (core/files/windows-names.ts:
 * no `:` or other refused character, no trailing dot or space, no device name, at most 255
 * characters), so the same names work on Linux and on Windows and users' scripts that read them
 * need no second form. Listed here:
 * - what a real `steward start` writes with every writer on: the durable queue (segments, the
 *   cursors directory and its files, the manifest), Parquet and QVD exports (`date=` directories,
 *   timestamped names), objectData JSON files (timestamp, event id and a correlation id full of
 *   characters Windows refuses), the key-value store (snapshot and log), the schedule store and the
 *   daily log file;
 * - what that run does not write: crash dumps (JSON and text), the temporary names of a
 *   replacement (`.tmp`) and of an export being written, the kept script logs of failed reloads
 *   (their directory, date folders and `<taskId>-<executionId>.log` names), the generated-once files under ./data, the
 *   simulated platform's certificate files, and the default paths of the configuration.
 */
import { randomUUID } from "node:crypto";
import { readdirSync, writeFileSync } from "node:fs";
import { basename, extname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { temporaryFileName } from "../../../core/adapters/local/directory-object-store.ts";
import { defaultConfig } from "../../../core/config/index.ts";
import { windowsNameProblem } from "../../../core/files/windows-names.ts";
import { runDate, scriptLogFileName } from "../../../core/task-events/script-log-files.ts";
import { INSTANCE_ID_FILE } from "../../../local/agent/telemetry.ts";
import { SCRAMBLE_KEY_FILE } from "../../../local/agent/udp-events.ts";
import { writeCrashDump } from "../../../local/cli/crash-dump.ts";
import { DEFAULT_CERTS_DIR } from "../../../local/cli/simulate-platform.ts";
import { THROWAWAY_PKI_FILE_NAMES } from "../../../local/simulated-platform/throwaway-pki.ts";
import { until } from "../../helpers/eventually.ts";
import { freePort } from "../../helpers/free-port.ts";
import { eventWithId, postEvent } from "../../helpers/ingest-client.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";
import { failedAlert } from "../../helpers/task-alert-fixture.ts";

/** Every name under `directory`, at any depth, but the test's own configuration. */
function namesUnder(directory: string): string[] {
  return (readdirSync(directory, { recursive: true }) as string[])
    .flatMap((path) => path.split("/"))
    .filter((name) => name !== "steward.yaml");
}

/** The names a path (relative, `/`- or `\`-separated) is made of, `.` and `..` left out. */
const namesOf = (path: string) =>
  path.split(/[\\/]/).filter((name) => name !== "" && name !== "." && name !== "..");

async function writeWithEveryWriter(dir: string): Promise<void> {
  const ports = { ingest: await freePort(), rest: await freePort() };
  writeFileSync(
    join(dir, "steward.yaml"),
    `Service:
  fileLogging: true
  auditEvents:
    port: ${ports.ingest}
    destination:
      type: parquet,tablefile,json
      parquet:
        writeFrequency: 100
      tablefile:
        writeFrequency: 100
      json:
        objectdata:
          enable: true
  restServer:
    port: ${ports.rest}
`,
  );
  const steward = await startStewardIn(dir);
  const url = `http://127.0.0.1:${ports.ingest}/api/v1/audit-event`;
  for (const correlationId of ["plain", 'a:b<c>d|e?f*g"h\\i/j. ', "CON"]) {
    expect((await postEvent(url, { ...eventWithId(randomUUID()), correlationId })).status).toBe(202);
  }
  const rest = `http://127.0.0.1:${ports.rest}/v4`;
  const post = (body: unknown) => ({
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect((await fetch(`${rest}/keyvalues/team`, post({ key: "k", value: "v" }))).status).toBe(201);
  const schedule = { name: "n", cronSchedule: "0 0 * * *", timezone: "UTC", platformTaskId: randomUUID() };
  expect(
    (await fetch(`${rest}/schedules`, post({ ...schedule, startupState: "stopped", tags: [] }))).status,
  ).toBe(201);
  await until(() => {
    const names = namesUnder(dir);
    return [".parquet", ".qvd"].every((ext) => names.some((name) => name.endsWith(ext)));
  }, 15_000);
  steward.child.kill("SIGTERM");
  expect((await steward.exited()).code).toBe(0);
}

describe("names of the files Steward creates", () => {
  it("are all names Windows takes as they are", async () => {
    // Prepare
    const dir = scratchDirectory("steward-file-names-");

    // Act
    await writeWithEveryWriter(dir);
    const crashFile = {
      ...defaultConfig().crashFile,
      enable: true,
      crashFileCreateJson: true,
      crashFileCreateText: true,
    };
    const dumps = writeCrashDump({ error: new Error("boom"), source: "startup", crashFile, cwd: dir });
    const written = namesUnder(dir);
    const config = defaultConfig();
    const notWrittenByTheRun = [
      `${config.keyValueStore.storeFile}.tmp`,
      basename(temporaryFileName(join(dir, "20260308T164626181Z-0a1b2c3d.parquet"))),
      INSTANCE_ID_FILE,
      SCRAMBLE_KEY_FILE,
      DEFAULT_CERTS_DIR,
      ...Object.values(THROWAWAY_PKI_FILE_NAMES),
      config.auditEvents.queue.directory,
      config.auditEvents.destination.parquet.exportDirectory,
      config.auditEvents.destination.tablefile.exportDirectory,
      config.auditEvents.destination.json.objectdata.exportDirectory,
      config.logDirectory,
      config.crashFile.crashFileDirectory,
      config.scheduler.storeFile,
      config.taskEvents.scriptLogFiles.directory,
      runDate(failedAlert()),
      scriptLogFileName(failedAlert()),
      `${scriptLogFileName(failedAlert())}.tmp`,
      scriptLogFileName(failedAlert({ event: { ...failedAlert().event, executionId: "" } })),
    ].flatMap(namesOf);

    // Assess: every kind of file is there, so that the check below covers them
    expect(dumps.map((file) => extname(file))).toEqual([".json", ".txt"]);
    for (const pattern of [
      /^\d{20}\.log$/,
      /^cursors$/,
      /^parquet\.json$/,
      /^destinations\.json$/,
      /^date=\d{4}-\d\d-\d\d$/,
      /\.parquet$/,
      /\.qvd$/,
      /_CON\.json$/,
      /_a_b_c_d_e_f_g_h_i_j\._\.json$/,
      /^key-values\.json$/,
      /^key-values\.json\.wal$/,
      /^schedules\.yaml$/,
      /^steward\.\d{4}-\d\d-\d\d\.log$/,
      /^crash_dump_.*\.json$/,
    ]) {
      expect(
        written.some((name) => pattern.test(name)),
        String(pattern),
      ).toBe(true);
    }
    const refused = [...written, ...notWrittenByTheRun]
      .map((name) => ({ name, problem: windowsNameProblem(name) }))
      .filter(({ problem }) => problem !== undefined);
    expect(refused).toEqual([]);
  }, 60_000);
});
