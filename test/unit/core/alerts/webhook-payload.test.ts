import { describe, expect, it } from "vitest";
import { webhookPayload } from "../../../../core/alerts/webhook-payload.ts";
import { templateFields } from "../../../../core/task-events/template-fields.ts";
import { failedReloadAlert, LINKS, notAvailable } from "../../../helpers/task-alerts.ts";

describe("webhook payload", () => {
  it("names the event by kind and says 'not available' for an owner that could not be looked up", () => {
    const alert = failedReloadAlert({
      kind: "reloadTaskAborted",
      appOwner: notAvailable("user lookup failed"),
    });
    const payload = webhookPayload("reloadTaskAborted", templateFields(alert, LINKS, { head: 0, tail: 0 }));
    expect(payload.event).toBe("Qlik Sense reload aborted");
    expect(payload.appOwnerName).toBe("not available");
    expect(payload.appOwnerEmail).toBe("");
    expect(Object.values(payload).every((value) => typeof value === "string")).toBe(true);
  });
});
