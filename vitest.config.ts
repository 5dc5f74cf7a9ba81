import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["test/bench/**", "node_modules/**"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: "forks",
    env: {
      AWS_EC2_METADATA_DISABLED: "true",
      AWS_REGION: "us-east-1",
      AWS_ACCESS_KEY_ID: "S3RVER",
      AWS_SECRET_ACCESS_KEY: "S3RVER",
      AWS_REQUEST_CHECKSUM_CALCULATION: "WHEN_REQUIRED",
      AWS_RESPONSE_CHECKSUM_VALIDATION: "WHEN_REQUIRED",
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
      SST_TELEMETRY_DISABLED: "1",
    },
  },
});
