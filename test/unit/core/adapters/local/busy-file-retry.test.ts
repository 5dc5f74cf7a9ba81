/**
 * Renames and deletions refused for a moment by a program holding the file (Windows: EPERM,
 * EBUSY, EACCES) are tried again, 6 attempts within a second, then reported; other errors, and
 * every error on Linux, at once. The operation is injected: it fails as Windows would.
 */
import { describe, expect, it } from "vitest";
import { BUSY_FILE_DELAYS_MS, retryWhileBusy } from "../../../../../core/adapters/local/busy-file-retry.ts";

function refusal(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: operation not permitted, rename 'a.tmp' -> 'a'`), {
    code,
    syscall: "rename",
    path: "a.tmp",
  });
}

/** An operation refused with `code` `times` times, then answering "done"; counts its attempts. */
function refusedFor(times: number, code = "EPERM") {
  const state = { attempts: 0 };
  const operation = async () => {
    state.attempts++;
    if (state.attempts <= times) throw refusal(code);
    return "done";
  };
  return { state, operation };
}

describe("retryWhileBusy on Windows", () => {
  it.each(["EPERM", "EBUSY", "EACCES"])(
    "tries a rename refused with %s again until it goes through",
    async (code) => {
      const { state, operation } = refusedFor(2, code);
      const started = performance.now();
      await expect(retryWhileBusy(operation, { platform: "win32" })).resolves.toBe("done");
      expect(state.attempts).toBe(3);
      expect(performance.now() - started).toBeGreaterThanOrEqual(70); // 25 + 50 ms of waiting
    },
  );

  it("reports a refusal that outlasts 6 attempts within a second, keeping its code", async () => {
    const { state, operation } = refusedFor(Number.POSITIVE_INFINITY, "EBUSY");
    const started = performance.now();
    const error = await retryWhileBusy(operation, { platform: "win32" }).catch((thrown: unknown) => thrown);
    const elapsed = performance.now() - started;
    expect(state.attempts).toBe(6);
    expect(BUSY_FILE_DELAYS_MS.reduce((sum, ms) => sum + ms, 0)).toBe(775);
    expect(elapsed).toBeGreaterThanOrEqual(770);
    // The waits sum to 775 ms; what is above it is the machine scheduling the timers late.
    expect(elapsed).toBeLessThan(1500);
    expect(error).toMatchObject({ code: "EBUSY", syscall: "rename", path: "a.tmp" });
    expect((error as Error).message).toContain("still refused after 6 attempts over 775 ms");
    expect((error as Error).message).toContain("virus scanner");
  });

  it("reports any other error at once", async () => {
    const { state, operation } = refusedFor(1, "ENOENT");
    await expect(retryWhileBusy(operation, { platform: "win32" })).rejects.toMatchObject({ code: "ENOENT" });
    expect(state.attempts).toBe(1);
  });
});

describe("retryWhileBusy on Linux", () => {
  it("reports EPERM, EBUSY and EACCES at once: there they are permissions, not another program", async () => {
    for (const code of ["EPERM", "EBUSY", "EACCES"]) {
      const { state, operation } = refusedFor(1, code);
      await expect(retryWhileBusy(operation, { platform: "linux" })).rejects.toMatchObject({ code });
      expect(state.attempts).toBe(1);
    }
  });
});
