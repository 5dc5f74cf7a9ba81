/** A Qlik Cloud tenant's failed reload run as an input takes it, for tests of the runs' inbox and intake. */
import type { CloudReloadRun } from "../../core/qlik-cloud/index.ts";

export function cloudRun(reloadId: string, overrides: Partial<CloudReloadRun> = {}): CloudReloadRun {
  return {
    tenant: "sim-a",
    reloadId,
    appId: "app-1",
    kind: "reloadTaskFailure",
    status: "FAILED",
    finishedAt: "2026-12-05T08:15:42.000Z",
    source: "webhook",
    input: "webhook",
    receivedAt: "2026-12-05T08:15:43.000Z",
    ...overrides,
  };
}
