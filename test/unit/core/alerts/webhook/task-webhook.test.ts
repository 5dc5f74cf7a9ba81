import { describe, expect, it } from "vitest";
import { taskTemplateFields } from "../../../../../core/alerts/task-fields.ts";
import { webhookPayload } from "../../../../../core/alerts/webhook/task-webhook.ts";
import { failedReloadAlert, LINKS, notAvailable } from "../../../../helpers/task-alerts.ts";

describe("webhook payload", () => {
  it("names the event by kind and says 'not available' for an owner that could not be looked up", () => {
    const alert = failedReloadAlert({
      kind: "reloadTaskAborted",
      appOwner: notAvailable("user lookup failed"),
    });
    const payload = webhookPayload(
      "reloadTaskAborted",
      taskTemplateFields(alert, LINKS, { head: 0, tail: 0 }),
    );
    expect(payload.event).toBe("Qlik Sense reload aborted");
    expect(payload.appOwnerName).toBe("not available");
    expect(payload.appOwnerEmail).toBe("");
    expect(Object.values(payload).every((value) => typeof value === "string")).toBe(true);
  });
});
