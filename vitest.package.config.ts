/**
 * The tests of what `npm run package` builds: the archives unpacked and run
 * (test/integration/package/) and the Windows smoke suite under Wine (test/integration/windows/).
 * They need the archives, so they run after the build, apart from the main suite
 * (`npm run test:package`; in CI the package step of .ci/run), one file at a time: each starts
 * executables that take a core or more, Wine's the most.
 */
import { defineConfig } from "vitest/config";

export const PACKAGE_TESTS = [
  "test/integration/package/**/*.test.ts",
  "test/integration/windows/**/*.test.ts",
];

export default defineConfig({
  test: {
    include: PACKAGE_TESTS,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: "forks",
    fileParallelism: false,
  },
});
