/**
 * A Qlik Cloud reload alert as the tenant's lookups complete it (core/qlik-cloud/cloud-run-alert.ts):
 * a failed reload of the app Sales in the space Finance of tenant `eu`, with its owner, who
 * reloaded and a three-line script log, for the tests of every channel that takes it.
 */
import { available, type CloudReloadAlert } from "../../core/alerts/index.ts";

export const CLOUD_FAILED_ALERT: CloudReloadAlert = {
  kind: "qlikCloudReloadFailure",
  tenant: { name: "eu", url: "https://eu.example.qlikcloud.com" },
  run: {
    reloadId: "r-1",
    appId: "app-1",
    status: "FAILED",
    finishedAt: "2026-12-05T10:00:05Z",
    errorCode: "EngineError",
    errorMessage: "Field not found: <Amount>",
    startTime: "2026-12-05T10:00:00Z",
    endTime: "2026-12-05T10:00:05Z",
  },
  app: available({ name: "Sales" }),
  space: available({ id: "s-1", name: "Finance" }),
  owner: available({ id: "u-1", name: "Ada Owner", email: "ada@example.com" }),
  reloadedBy: available({ id: "u-2", name: "Bob Reloader", email: "" }),
  scriptLog: available({
    lines: ["first line", "middle", "Field not found: <Amount>"],
    lineCount: 3,
    characters: 40,
  }),
};
