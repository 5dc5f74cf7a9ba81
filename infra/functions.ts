import { stewardConfig } from "./secrets.ts";

/** Settings shared by every Steward function: the same Node major as the local runtime. */
export const functionDefaults = {
  runtime: "nodejs20.x",
  architecture: "arm64",
  memory: "512 MB",
  timeout: "20 seconds",
  environment: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" },
  link: [stewardConfig],
} as const;
