/**
 * A script log kept on a disk that is full: a small tmpfs (root only; skipped with a warning
 * otherwise, a failure under CI=true) that the log does not fit on. The write is counted failed
 * with ENOSPC at WARN, never rejects, leaves no torn file behind, and once there is room again the
 * next failed reload is kept.
 */
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createScriptLogFolder } from "../../../../core/adapters/local/script-log-folder.ts";
import { available } from "../../../../core/alerts/index.ts";
import { createScriptLogFiles } from "../../../../core/task-events/script-log-files.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";
import { scratchDirectory, smallDiskDuringTest } from "../../../helpers/per-test-environment.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { smallDiskUnavailable } from "../../../helpers/refusing-directory.ts";
import { failedAlert } from "../../../helpers/task-alert-fixture.ts";

const unavailable = smallDiskUnavailable();
const DISK_BYTES = 256 * 1024;

describe.skipIf(unavailable !== undefined)("a script log on a full disk", () => {
  it("is counted failed with ENOSPC at WARN, leaves no torn file, and the next one is kept once there is room", async () => {
    // Prepare
    const mount = join(scratchDirectory("steward-script-log-disk-"), "disk");
    const disk = smallDiskDuringTest(mount, DISK_BYTES);
    expect(disk).toBeDefined();
    const filler = join(mount, "filler.bin");
    writeFileSync(filler, Buffer.alloc(DISK_BYTES - 64 * 1024));
    const logger = recordingLogger();
    const files = createScriptLogFiles({
      folder: createScriptLogFolder(join(mount, "script-logs")),
      clock: createManualClock(),
      logger,
    });
    const lines = Array.from({ length: 4000 }, (_, i) => `line ${i}: a script line of some length`);
    const big = failedAlert({ scriptLog: available({ lines, lineCount: lines.length, characters: 0 }) });

    // Act
    const outcome = await files.keep(big);

    // Assess
    expect(outcome).toBe("failed");
    expect(logger.at("warn")[0]?.fields?.error).toMatch(/ENOSPC/);
    const dateFolder = join(mount, "script-logs", "2026-11-27");
    expect(readdirSync(dateFolder)).toEqual([]);

    // Act: room again
    rmSync(filler);
    expect(await files.keep(big)).toBe("written");
    expect(readdirSync(dateFolder)).toHaveLength(1);
  });
});
