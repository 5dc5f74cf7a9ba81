import { describe, expect, it } from "vitest";
import { appLists } from "../../../../core/polling/health-app-lists.ts";
import {
  appNames,
  FINANCE_ID,
  SALES_ID,
  SESSION_APP_A,
  SESSION_APP_B,
  UNKNOWN_ID,
} from "./polling-fixtures.ts";

describe("appLists", () => {
  it("names known apps, keeps unknown ids, puts session apps apart as ids; both sorted", () => {
    const lists = appLists([UNKNOWN_ID, SALES_ID, SESSION_APP_A, FINANCE_ID, SESSION_APP_B], appNames());

    expect(lists).toEqual({
      names: [UNKNOWN_ID, "Finance", "Sales"],
      sessionApps: [SESSION_APP_B, SESSION_APP_A],
    });
  });

  it("looks an id up lower-cased", () => {
    expect(appLists([FINANCE_ID.toUpperCase()], appNames()).names).toEqual(["Finance"]);
  });

  it("gives empty lists for no docs", () => {
    expect(appLists([], appNames())).toEqual({ names: [], sessionApps: [] });
  });

  it("treats only a SessionApp prefix as a session app", () => {
    expect(appLists(["xSessionApp_1", "sessionapp_2"], appNames())).toEqual({
      names: ["sessionapp_2", "xSessionApp_1"],
      sessionApps: [],
    });
  });
});
