import { defineConfig } from "vitest/config";
import { PACKAGE_TESTS } from "./vitest.package.config.ts";

const env = {
  AWS_EC2_METADATA_DISABLED: "true",
  AWS_REGION: "us-east-1",
  AWS_ACCESS_KEY_ID: "S3RVER",
  AWS_SECRET_ACCESS_KEY: "S3RVER",
  AWS_REQUEST_CHECKSUM_CALCULATION: "WHEN_REQUIRED",
  AWS_RESPONSE_CHECKSUM_VALIDATION: "WHEN_REQUIRED",
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
  SST_TELEMETRY_DISABLED: "1",
};

export default defineConfig({
  test: {
    exclude: ["test/bench/**", "node_modules/**"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Under CI a failed test is run once more. The CI machine has 2 cores and runs real servers,
    // Chromium and Steward processes side by side, and a stall of the whole machine can push one
    // test past its time limit. A test that passes on its retry does not fail CI, but CI names it
    // (RETRIED, with the error of the failed attempt) at the end of its output, so a flaky test is
    // seen and fixed; a test that fails twice fails CI. Developers' runs do not retry.
    retry: process.env.CI === "true" ? 1 : 0,
    pool: "forks",
    projects: [
      // The archives' tests run after `npm run package` (vitest.package.config.ts).
      { extends: true, test: { name: "all", include: ["test/**/*.test.ts"], exclude: PACKAGE_TESTS, env } },
      {
        // The ingest API's HTTP tests once more, through the local node:http front door
        // (test/helpers/ingest-app.ts picks it from this variable).
        extends: true,
        test: {
          name: "ingest via node:http",
          include: ["test/unit/functions/audit-ingest/**/*.test.ts"],
          env: { ...env, STEWARD_INGEST_FRONT_DOOR: "node" },
        },
      },
    ],
  },
});
