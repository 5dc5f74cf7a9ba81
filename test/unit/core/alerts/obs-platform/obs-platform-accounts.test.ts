import { describe, expect, it } from "vitest";
import {
  accountNamesFor,
  type SendToAccount,
} from "../../../../../core/alerts/obs-platform/obs-platform-accounts.ts";
import { available } from "../../../../../core/alerts/task-alert.ts";
import { failedAlert } from "../../../../helpers/task-alert-fixture.ts";
import { taskInfo } from "../../../../helpers/task-alerts.ts";

const PROPERTY = "Butler_FailedTask_Event_NewRelicAccount";

const alertWithAccounts = (...names: string[]) =>
  failedAlert({
    task: available(taskInfo({ customProperties: names.map((value) => ({ name: PROPERTY, value })) })),
  });

const sendTo = (overrides: {
  byProperty?: boolean;
  always?: boolean;
  account?: string[];
}): SendToAccount => ({
  byCustomProperty: { enable: overrides.byProperty ?? false, customPropertyName: PROPERTY },
  always: { enable: overrides.always ?? false, account: overrides.account ?? [] },
});

describe("which accounts get a reload alert", () => {
  it("joins the fixed list, the task's custom property values and the section's accounts, each once", () => {
    // Act
    const names = accountNamesFor(
      alertWithAccounts("Finance", "Ops"),
      sendTo({ byProperty: true, always: true, account: ["Ops", "Central"] }),
      ["Central", "Audit"],
    );

    // Assess
    expect(names).toEqual(["Ops", "Central", "Finance", "Audit"]);
  });

  it("ignores the custom property and the fixed list when their switches are off", () => {
    // Act
    const names = accountNamesFor(
      alertWithAccounts("Finance"),
      sendTo({ byProperty: false, always: false, account: ["Ops"] }),
      [],
    );

    // Assess
    expect(names).toEqual([]);
  });

  it("reads only the named custom property, and nothing when the task could not be looked up", () => {
    // Prepare
    const other = failedAlert({
      task: available(taskInfo({ customProperties: [{ name: "Department", value: "Finance" }] })),
    });

    // Act & Assess
    expect(accountNamesFor(other, sendTo({ byProperty: true }), [])).toEqual([]);
    expect(
      accountNamesFor(
        failedAlert({ task: { available: false, reason: "down" } }),
        sendTo({ byProperty: true }),
        ["Central"],
      ),
    ).toEqual(["Central"]);
  });
});
