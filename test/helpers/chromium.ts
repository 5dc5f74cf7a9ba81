/**
 * Debian's Chromium driven by playwright-core, for tests of what a person sees in the pages
 * Steward serves. Launched headless with a fresh profile and without background networking (the
 * closed test network refuses Chromium's own connections). Absent binary: tests skip loudly
 * outside CI and fail in CI. Screenshots go to test/artifacts/ (ignored by git).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium } from "playwright-core";

export const CHROMIUM_PATH = "/usr/bin/chromium";
export const chromiumAvailable = spawnSync("test", ["-x", CHROMIUM_PATH]).status === 0;

/** Call at module level of a test file; returns true when the tests must be skipped. */
export function skipWithoutChromium(): boolean {
  if (chromiumAvailable) return false;
  if (process.env.CI === "true") throw new Error("chromium is required in CI (apt-get install -y chromium)");
  console.warn("\n*** chromium not installed: browser tests SKIPPED (apt-get install -y chromium) ***\n");
  return true;
}

export const ARTIFACTS_DIR = join(import.meta.dirname, "..", "artifacts");

export function screenshotPath(name: string): string {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  return join(ARTIFACTS_DIR, `${name}.png`);
}

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Chromium with the usual flags and `extraArgs` (e.g. a pinned test certificate, a host rule). */
export async function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), "steward-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      ...extraArgs,
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
