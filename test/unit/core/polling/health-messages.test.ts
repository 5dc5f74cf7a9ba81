import { describe, expect, it } from "vitest";
import { createHealthMessageMapper } from "../../../../core/polling/health-messages.ts";
import { HEALTH, SALES_ID, SESSION_APP_A, STARTED } from "./polling-fixtures.ts";

const asRecord = (messages: { topic: string; payload: string }[]) =>
  Object.fromEntries(messages.map((m) => [m.topic, m.payload]));

describe("createHealthMessageMapper", () => {
  it("publishes every value as text under <baseTopic><host without port>/", () => {
    const messages = createHealthMessageMapper({ baseTopic: "qliksense/" })(
      HEALTH,
      "sense1.example.com:4747",
    );

    expect(asRecord(messages)).toEqual({
      "qliksense/sense1.example.com/version": "12.1306.1",
      "qliksense/sense1.example.com/started": STARTED,
      "qliksense/sense1.example.com/mem/comitted": "4107.5",
      "qliksense/sense1.example.com/mem/allocated": "4213.25",
      "qliksense/sense1.example.com/mem/free": "10512.75",
      "qliksense/sense1.example.com/cpu/total": "3.6",
      "qliksense/sense1.example.com/session/active": "2",
      "qliksense/sense1.example.com/session/total": "5",
      "qliksense/sense1.example.com/apps/active_docs": `${SALES_ID},${SESSION_APP_A}`,
      "qliksense/sense1.example.com/apps/loaded_docs": HEALTH.apps.loaded_docs.join(","),
      "qliksense/sense1.example.com/apps/in_memory_docs": HEALTH.apps.in_memory_docs.join(","),
      "qliksense/sense1.example.com/apps/calls": "4567",
      "qliksense/sense1.example.com/apps/selections": "123",
      "qliksense/sense1.example.com/users/active": "1",
      "qliksense/sense1.example.com/users/total": "3",
      "qliksense/sense1.example.com/cache/hits": "120",
      "qliksense/sense1.example.com/cache/lookups": "360",
      "qliksense/sense1.example.com/cache/added": "200",
      "qliksense/sense1.example.com/cache/replaced": "7",
      "qliksense/sense1.example.com/cache/bytes_added": "1048576",
      "qliksense/sense1.example.com/saturated": "false",
      "qliksense/sense1.example.com/cache/hit_ratio": "33",
    });
    expect(messages).toHaveLength(22);
  });

  it("floors the hit ratio", () => {
    const health = { ...HEALTH, cache: { ...HEALTH.cache, hits: 2, lookups: 3 } };
    const messages = asRecord(createHealthMessageMapper({ baseTopic: "q/" })(health, "h:4747"));

    expect(messages["q/h/cache/hit_ratio"]).toBe("66");
  });

  it("leaves out the hit ratio when there were no lookups", () => {
    const health = { ...HEALTH, cache: { ...HEALTH.cache, hits: 0, lookups: 0 } };
    const messages = createHealthMessageMapper({ baseTopic: "q/" })(health, "h:4747");

    expect(messages.map((m) => m.topic)).not.toContain("q/h/cache/hit_ratio");
    expect(messages).toHaveLength(21);
  });

  it("publishes saturated as true", () => {
    const messages = asRecord(
      createHealthMessageMapper({ baseTopic: "q/" })({ ...HEALTH, saturated: true }, "h"),
    );

    expect(messages["q/h/saturated"]).toBe("true");
  });

  it("adds the / a base topic lacks, and strips a bracketed IPv6 host's port", () => {
    const messages = createHealthMessageMapper({ baseTopic: "steward" })(HEALTH, "[::1]:4747");

    expect(messages[0]?.topic).toBe("steward/::1/version");
  });

  it("publishes empty doc lists as ''", () => {
    const health = { ...HEALTH, apps: { ...HEALTH.apps, active_docs: [] } };
    const messages = asRecord(createHealthMessageMapper({ baseTopic: "q/" })(health, "h"));

    expect(messages["q/h/apps/active_docs"]).toBe("");
  });
});
