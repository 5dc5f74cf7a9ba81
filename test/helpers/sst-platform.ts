/**
 * SST's platform (`.sst/platform`: the declarations `npm run typecheck` checks infra/ against) for
 * tests that run that check: installed first when missing or stale, as the type check does. When
 * it cannot be installed (no npm registry), the tests skip loudly outside CI and fail in CI.
 */
import { fileURLToPath } from "node:url";
import { ensureSstPlatform } from "../../infra/install-sst-platform.ts";

/** The repository's root, where sst.config.ts, tsconfig.infra.json and `.sst/` are. */
export const projectDir = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");

/** Await at module level of a test file; resolves true when the tests must be skipped. */
export async function skipWithoutSstPlatform(): Promise<boolean> {
  try {
    await ensureSstPlatform(projectDir);
    return false;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (process.env.CI === "true") throw new Error(`SST's platform is required in CI: ${reason}`);
    console.warn(`\n*** SST's platform not installed: infra type-check tests SKIPPED (${reason}) ***\n`);
    return true;
  }
}
