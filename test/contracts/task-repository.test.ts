import { createRepositoryClient } from "../../core/adapters/platform/repository-client.ts";
import { createTaskRepository } from "../../core/adapters/platform/repository-task-events.ts";
import { loadPlatformTlsMaterial } from "../../core/adapters/platform/tls-material.ts";
import { systemClock } from "../../core/system-clock.ts";
import { describeTaskRepositoryContract } from "./task-repository.contract.ts";

describeTaskRepositoryContract("the repository over mutual TLS", async (platform) => {
  const client = createRepositoryClient({
    connection: platform.connection({ timeoutMs: 500 }),
    tls: await loadPlatformTlsMaterial(platform.certificates),
    clock: systemClock,
  });
  return { repository: createTaskRepository(client), close: () => client.close() };
});
