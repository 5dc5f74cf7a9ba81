import { afterEach, describe, expect, it, vi } from "vitest";
import { installSstStub, type SstStub } from "../../helpers/sst-stub.ts";

describe("infra/dev.ts", () => {
  let stub: SstStub | undefined;

  afterEach(() => {
    stub?.uninstall();
    vi.unstubAllEnvs();
  });

  it("starts the agent on the file STEWARD_DEV_CONFIG names", async () => {
    vi.resetModules();
    vi.stubEnv("STEWARD_DEV_CONFIG", "steward.dev.yaml");
    stub = installSstStub("dev");
    // Computed specifier: infra files are evaluated under the SST stub, not type-checked here.
    const modulePath = "../../../infra/dev.ts";
    await import(modulePath);

    expect(stub.find("x.DevCommand", "Agent").args).toMatchObject({
      dev: { command: "node bin/steward.js start --config steward.dev.yaml", autostart: true },
    });
  });
});
