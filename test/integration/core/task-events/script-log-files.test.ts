/**
 * The script logs of failed reloads kept in a real directory: where each file goes and what it
 * holds, what is not written (aborted runs, a log that is not available), a directory that refuses
 * writes (a WARN and a count, never a rejection), and the retention by age and by size.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createScriptLogFolder } from "../../../../core/adapters/local/script-log-folder.ts";
import { available, notAvailable } from "../../../../core/alerts/index.ts";
import { windowsNameProblem } from "../../../../core/files/windows-names.ts";
import { createScriptLogFiles } from "../../../../core/task-events/script-log-files.ts";
import { createScriptLogRetention } from "../../../../core/task-events/script-log-retention.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";
import { createMemoryMetricsRegistry } from "../../../helpers/memory-metrics-registry.ts";
import { refuseWritesDuringTest, scratchDirectory } from "../../../helpers/per-test-environment.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { EXECUTION_ID, failedAlert } from "../../../helpers/task-alert-fixture.ts";

const TASK_ID = "54767e54-af40-4da3-8c3a-a9ead04c7ee9";
const modeOf = (path: string) => statSync(path).mode & 0o777;

function setUp(directory = join(scratchDirectory("steward-script-logs-"), "script-logs")) {
  const logger = recordingLogger();
  const metrics = createMemoryMetricsRegistry();
  const clock = createManualClock(Date.parse("2026-11-27T03:00:00Z"));
  const folder = createScriptLogFolder(directory);
  const files = createScriptLogFiles({ folder, clock, logger, metrics });
  const counted = () =>
    Object.fromEntries(
      (metrics.scrape().find((m) => m.name === "steward_script_logs_total")?.samples ?? []).map((s) => [
        s.labels.outcome,
        s.value,
      ]),
    );
  return { directory, logger, metrics, clock, folder, files, counted };
}

describe("the script log of a failed reload", () => {
  it("is written whole, CRLF lines, to <dir>/<UTC date of the run>/<taskId>-<executionId>.log, 0600 in 0700 folders", async () => {
    const { directory, files, counted } = setUp();
    const lines = Array.from({ length: 5000 }, (_, i) => `line ${i + 1}: LOAD * FROM sales.qvd`);
    const alert = failedAlert({ scriptLog: available({ lines, lineCount: lines.length, characters: 0 }) });
    expect(await files.keep(alert)).toBe("written");
    const name = `${TASK_ID}-${EXECUTION_ID}.log`;
    // The run started 2026-11-27T01:59:45Z: its UTC date, whatever the node's local time.
    const file = join(directory, "2026-11-27", name);
    expect(readFileSync(file, "utf8")).toBe(`${lines.join("\r\n")}\r\n`);
    expect(windowsNameProblem(name)).toBeUndefined();
    expect(windowsNameProblem("2026-11-27")).toBeUndefined();
    expect(modeOf(file)).toBe(0o600);
    expect(modeOf(join(directory, "2026-11-27"))).toBe(0o700);
    expect(modeOf(directory)).toBe(0o700);
    expect(readdirSync(join(directory, "2026-11-27"))).toEqual([name]);
    expect(counted()).toMatchObject({ written: 1, failed: 0, not_available: 0 });
    expect(files.stats()).toMatchObject({ written: 1, failed: 0 });
  });

  it("takes the date of when the event came when the run's result or start is not available", async () => {
    const { directory, files } = setUp();
    const alert = failedAlert({ execution: notAvailable("the repository did not answer") });
    await files.keep({
      ...alert,
      event: { ...alert.event, receivedAtMs: Date.parse("2026-12-31T23:59:59Z") },
    });
    expect(readdirSync(directory)).toEqual(["2026-12-31"]);
    const found = failedAlert().execution;
    if (!found.available) throw new Error("the fixture's execution is available");
    // The repository's "never" is no run's date.
    const never = available({ ...found.value, startTime: "1753-01-01T00:00:00.000Z" });
    await files.keep({
      ...failedAlert({ execution: never }),
      event: { ...alert.event, receivedAtMs: Date.parse("2027-01-02T00:00:00Z") },
    });
    expect(readdirSync(directory).sort()).toEqual(["2026-12-31", "2027-01-02"]);
  });

  it("writes nothing for an aborted or successful run", async () => {
    const { directory, files, counted } = setUp();
    expect(await files.keep(failedAlert({ kind: "reloadTaskAborted" }))).toBeUndefined();
    expect(await files.keep(failedAlert({ kind: "reloadTaskSuccess" }))).toBeUndefined();
    expect(() => readdirSync(directory)).toThrow(/ENOENT/);
    expect(counted()).toMatchObject({ written: 0 });
  });

  it("writes nothing when the log is not available, and says why", async () => {
    const { directory, files, logger, counted } = setUp();
    const alert = failedAlert({ scriptLog: notAvailable("downloading the script log failed: 404") });
    expect(await files.keep(alert)).toBe("not_available");
    expect(() => readdirSync(directory)).toThrow(/ENOENT/);
    expect(logger.at("info")).toContainEqual(
      expect.objectContaining({
        message: expect.stringContaining("not available: no file written"),
        fields: expect.objectContaining({ reason: "downloading the script log failed: 404" }),
      }),
    );
    expect(counted()).toMatchObject({ not_available: 1, written: 0 });
  });

  it("in a directory that refuses writes, is counted failed with a WARN once a minute, and never rejects", async () => {
    const { directory, files, logger, clock, counted } = setUp();
    mkdirSync(directory, { recursive: true });
    const refusal = refuseWritesDuringTest(directory);
    expect(await files.keep(failedAlert())).toBe("failed");
    expect(await files.keep(failedAlert())).toBe("failed");
    const warns = logger.at("warn");
    expect(warns, refusal.how).toHaveLength(1);
    expect(warns[0]?.message).toContain("could not be kept on disk (the alert went out all the same)");
    expect(warns[0]?.fields).toMatchObject({ file: `2026-11-27/${TASK_ID}-${EXECUTION_ID}.log` });
    expect(String(warns[0]?.fields?.error)).toMatch(/EROFS|EACCES|ENOTDIR/);
    clock.advance(60_000);
    expect(await files.keep(failedAlert())).toBe("failed");
    expect(logger.at("warn")[1]?.fields).toMatchObject({ failuresSinceLastLine: 2 });
    expect(counted()).toMatchObject({ failed: 3, written: 0 });
    expect(files.stats().lastError?.message).toMatch(/EROFS|EACCES|ENOTDIR/);
    refusal.restore();
    expect(await files.keep(failedAlert())).toBe("written");
  });
});

/** A kept log of `bytes` in `<directory>/<date>/<name>`, written at `mtime`. */
function keptLog(directory: string, date: string, name: string, bytes: number, mtime: string): void {
  mkdirSync(join(directory, date), { recursive: true });
  const file = join(directory, date, name);
  writeFileSync(file, "x".repeat(bytes));
  utimesSync(file, new Date(mtime), new Date(mtime));
}

function retentionOf(setup: ReturnType<typeof setUp>, retentionDays: number, maxTotalBytes: number) {
  const { folder, clock, logger, metrics } = setup;
  return createScriptLogRetention({
    folder,
    settings: { retentionDays, maxTotalBytes },
    clock,
    logger,
    metrics,
  });
}

const removedCounts = (setup: ReturnType<typeof setUp>) =>
  Object.fromEntries(
    (setup.metrics.scrape().find((m) => m.name === "steward_script_logs_removed_total")?.samples ?? []).map(
      (s) => [s.labels.reason, s.value],
    ),
  );

describe("the retention of kept script logs", () => {
  it("removes the date folders whose day ended more than retentionDays ago, at start and every hour", async () => {
    const setup = setUp();
    const { directory, clock, logger } = setup;
    keptLog(directory, "2026-11-24", "a.log", 10, "2026-11-24T10:00:00Z");
    keptLog(directory, "2026-11-24", "torn-by-a-crash.log.tmp", 5, "2026-11-24T10:00:01Z");
    keptLog(directory, "2026-11-25", "b.log", 10, "2026-11-25T10:00:00Z");
    keptLog(directory, "2026-11-26", "c.log", 10, "2026-11-26T10:00:00Z");
    writeFileSync(join(directory, "README.txt"), "the operator's own file\n");
    mkdirSync(join(directory, "archive"));
    const retention = retentionOf(setup, 1, 1024 * 1024);
    // At 2026-11-27T03:00Z the 24th and the 25th ended more than a day ago; the 26th ended 3 hours ago.
    await retention.start();
    expect(readdirSync(directory).sort()).toEqual(["2026-11-26", "README.txt", "archive"]);
    expect(removedCounts(setup)).toMatchObject({ age: 3, size: 0 });
    expect(logger.at("info")).toContainEqual(
      expect.objectContaining({
        message: "kept script logs removed",
        fields: expect.objectContaining({
          olderThanRetention: 3,
          overSizeCap: 0,
          filesKept: 1,
          bytesKept: 10,
        }),
      }),
    );
    clock.advance(3_600_000 * 20); // 2026-11-27T23:00Z: an hourly round, and the 26th stays
    await retention.prune();
    expect(readdirSync(directory)).toContain("2026-11-26");
    clock.advance(3_600_000); // 2026-11-28T00:00Z: the next hourly round removes it
    await retention.stop();
    expect(readdirSync(directory).sort()).toEqual(["README.txt", "archive"]);
    expect(removedCounts(setup)).toMatchObject({ age: 4 });
  });

  it("over maxTotalBytes removes the oldest files first until the rest fits", async () => {
    const setup = setUp();
    const { directory } = setup;
    keptLog(directory, "2026-11-25", "old.log", 400, "2026-11-25T23:00:00Z");
    keptLog(directory, "2026-11-26", "later.log", 400, "2026-11-26T12:00:00Z");
    keptLog(directory, "2026-11-26", "earlier.log", 400, "2026-11-26T08:00:00Z");
    keptLog(directory, "2026-11-27", "newest.log", 400, "2026-11-27T02:00:00Z");
    const retention = retentionOf(setup, 30, 900);
    await retention.start();
    await retention.stop();
    expect(readdirSync(directory).sort()).toEqual(["2026-11-26", "2026-11-27"]);
    expect(readdirSync(join(directory, "2026-11-26"))).toEqual(["later.log"]);
    expect(removedCounts(setup)).toMatchObject({ size: 2, age: 0 });
    expect(retention.stats()).toEqual({ files: 2, bytes: 800 });
  });

  it("a write that takes the total over the cap starts a round", async () => {
    const setup = setUp();
    const { directory, folder, clock, logger } = setup;
    keptLog(directory, "2026-11-20", "old.log", 2000, "2026-11-20T10:00:00Z");
    const retention = retentionOf(setup, 30, 2020); // the new log's 37 bytes take it over
    await retention.start();
    const files = createScriptLogFiles({ folder, clock, logger, afterWrite: (b) => retention.added(b) });
    expect(await files.keep(failedAlert())).toBe("written");
    await retention.stop();
    expect(readdirSync(directory)).toEqual(["2026-11-27"]);
    expect(removedCounts(setup)).toMatchObject({ size: 1 });
  });
});
