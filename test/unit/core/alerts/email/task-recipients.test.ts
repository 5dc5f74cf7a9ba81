import { describe, expect, it } from "vitest";
import {
  type RecipientRules,
  taskEmailRecipients,
} from "../../../../../core/alerts/email/task-recipients.ts";
import { emailConfig } from "../../../../helpers/alert-configs.ts";
import {
  appOwner,
  available,
  failedReloadAlert,
  notAvailable,
  taskInfo,
} from "../../../../helpers/task-alerts.ts";

const rules = (failure: Record<string, unknown> = {}): RecipientRules =>
  emailConfig({ reloadTaskFailure: { recipients: ["ops@example.com"], ...failure } }).reloadTaskFailure;

const withProperties = (...customProperties: { name: string; value: string }[]) =>
  failedReloadAlert({ task: available(taskInfo({ customProperties })) });

describe("email recipients: the global list and its custom property gate", () => {
  it("uses the list for every task when the gate is off", () => {
    expect(taskEmailRecipients(failedReloadAlert(), rules()).recipients).toEqual(["ops@example.com"]);
  });

  it("uses the list only for tasks whose custom property has the enabled value when the gate is on", () => {
    const gated = rules({ alertEnableByCustomProperty: { enable: true } });
    expect(taskEmailRecipients(failedReloadAlert(), gated).recipients).toEqual([]);
    expect(
      taskEmailRecipients(withProperties({ name: "Butler_FailedAlertEnableEmail", value: "No" }), gated)
        .recipients,
    ).toEqual([]);
    expect(
      taskEmailRecipients(withProperties({ name: "Butler_FailedAlertEnableEmail", value: "Yes" }), gated)
        .recipients,
    ).toEqual(["ops@example.com"]);
  });

  it("uses the list, with a note, when the task could not be looked up although the gate is on", () => {
    const decision = taskEmailRecipients(
      failedReloadAlert({ task: notAvailable("repository timed out") }),
      rules({ alertEnableByCustomProperty: { enable: true } }),
    );
    expect(decision.recipients).toEqual(["ops@example.com"]);
    expect(decision.notes[0]).toContain("repository timed out");
  });
});

describe("email recipients: task addresses, owner and checks", () => {
  it("always adds the task's address property, several per value, de-duplicated case-insensitively", () => {
    const decision = taskEmailRecipients(
      withProperties(
        { name: "Butler_FailedAlertSendToEmail", value: "a@example.com, OPS@example.com" },
        { name: "Butler_FailedAlertSendToEmail", value: "b@example.com" },
      ),
      rules({ alertEnableByCustomProperty: { enable: true } }),
    );
    expect(decision.recipients).toEqual(["a@example.com", "OPS@example.com", "b@example.com"]);
  });

  it("adds every address of an included owner and none of an excluded one", () => {
    const twoAddresses = failedReloadAlert({
      appOwner: available(appOwner({ emails: ["ada@example.com", "ada.alt@example.com"] })),
    });
    expect(taskEmailRecipients(twoAddresses, rules({ appOwnerAlert: { enable: true } })).recipients).toEqual([
      "ops@example.com",
      "ada@example.com",
      "ada.alt@example.com",
    ]);
    const excluded = rules({
      appOwnerAlert: { enable: true, excludeOwner: { user: [{ directory: "lab", userId: "ADA" }] } },
    });
    expect(taskEmailRecipients(twoAddresses, excluded).recipients).toEqual(["ops@example.com"]);
    const listedOnly = rules({
      appOwnerAlert: {
        enable: true,
        includeOwner: { includeAll: false, user: [{ directory: "LAB", userId: "bob" }] },
      },
    });
    expect(taskEmailRecipients(twoAddresses, listedOnly).recipients).toEqual(["ops@example.com"]);
  });

  it("notes an owner that could not be looked up or has no address, and keeps the others", () => {
    const unreachable = taskEmailRecipients(
      failedReloadAlert({ appOwner: notAvailable("user lookup answered 500") }),
      rules({ appOwnerAlert: { enable: true } }),
    );
    expect(unreachable.recipients).toEqual(["ops@example.com"]);
    expect(unreachable.notes).toEqual(["app owner not available: user lookup answered 500"]);
    const noAddress = taskEmailRecipients(
      failedReloadAlert({ appOwner: available(appOwner({ emails: [] })) }),
      rules({ appOwnerAlert: { enable: true } }),
    );
    expect(noAddress.notes).toEqual(["app owner LAB\\ada has no email address"]);
  });

  it("refuses a value that is not an address, saying where it came from", () => {
    const decision = taskEmailRecipients(
      withProperties({ name: "Butler_FailedAlertSendToEmail", value: "not an address" }),
      rules(),
    );
    expect(decision.recipients).toEqual(["ops@example.com"]);
    expect(decision.refused).toEqual([
      { value: "not an address", source: "task custom property Butler_FailedAlertSendToEmail" },
    ]);
  });
});
