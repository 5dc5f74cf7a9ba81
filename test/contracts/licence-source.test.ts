import { createLicenseRepository } from "../../core/adapters/platform/license-repository.ts";
import { loadPlatformTlsMaterial } from "../../core/adapters/platform/tls-material.ts";
import { systemClock } from "../../core/system-clock.ts";
import { describeLicenceSourceContract } from "./licence-source.contract.ts";

describeLicenceSourceContract("the repository over mutual TLS", async (platform) =>
  createLicenseRepository({
    connection: platform.connection({ timeoutMs: 500 }),
    tls: await loadPlatformTlsMaterial(platform.certificates),
    clock: systemClock,
    version: { host: "127.0.0.1", port: platform.servers[0]?.port ?? 0 },
  }),
);
