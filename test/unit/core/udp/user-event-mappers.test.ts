import { describe, expect, it } from "vitest";
import { stringField } from "../../../../core/shared/line-protocol.ts";
import { applyLayout, splitFields } from "../../../../core/udp/apply-layout.ts";
import { USER_CONNECTION_LAYOUT } from "../../../../core/udp/field-layouts.ts";
import { createScrambler } from "../../../../core/udp/scramble.ts";
import { createUserAgentParser } from "../../../../core/udp/user-agent.ts";
import { createUserEventEnricher, type UserEvent } from "../../../../core/udp/user-event.ts";
import { createUserEventMessageMapper } from "../../../../core/udp/user-event-messages.ts";
import { createUserEventObservabilityMapper } from "../../../../core/udp/user-event-observability.ts";
import { createUserEventPointMapper } from "../../../../core/udp/user-event-point.ts";
import { APP_ID, appNames, SCRAMBLE_KEY, USER_CONNECTION, userEventsConfig } from "./udp-fixtures.ts";

const AT = Date.UTC(2026, 0, 1, 12);

function event(text = USER_CONNECTION): UserEvent {
  const enrich = createUserEventEnricher(appNames({ [APP_ID]: "Sales" }), createUserAgentParser());
  return enrich(applyLayout(USER_CONNECTION_LAYOUT, splitFields(text, USER_CONNECTION_LAYOUT) ?? []));
}

const WITHOUT_APP = "/qseow-proxy-session/;h;Start session;D;U;AppAccess;/hub;no agent";

describe("createUserEventPointMapper", () => {
  it("maps a user event to user_events with Butler SOS's tags and, on InfluxDB 3.x, _field fields", () => {
    const toPoint = createUserEventPointMapper([{ name: "env", value: "prod" }], 3);

    expect(toPoint(event(), AT)).toEqual({
      measurement: "user_events",
      tags: {
        env: "prod",
        host: "pro2-win1",
        event_action: "Close connection",
        userFull: "userdir\\user3",
        userDirectory: "userdir",
        userId: "user3",
        origin: "AppAccess",
        appId: APP_ID,
        appName: "Sales",
        uaBrowserName: "Firefox",
        uaBrowserMajorVersion: "58",
        uaOsName: "Windows",
        uaOsVersion: "NT 10.0",
      },
      fields: {
        userFull_field: stringField("userdir\\user3"),
        userId_field: stringField("user3"),
        appId_field: stringField(APP_ID),
        appName_field: stringField("Sales"),
      },
      timestampMs: AT,
    });
  });

  it("names the fields as Butler SOS did on InfluxDB 1.x: userFull, userId, appId, appName", () => {
    const point = createUserEventPointMapper([], 1)(event(), AT);

    expect(point.fields).toEqual({
      userFull: stringField("userdir\\user3"),
      userId: stringField("user3"),
      appId: stringField(APP_ID),
      appName: stringField("Sales"),
    });
  });

  it("names the fields as Butler SOS did on InfluxDB 2.x: userFull, userId, appId_field, appName_field", () => {
    const point = createUserEventPointMapper([], 2)(event(), AT);

    expect(point.fields).toEqual({
      userFull: stringField("userdir\\user3"),
      userId: stringField("user3"),
      appId_field: stringField(APP_ID),
      appName_field: stringField("Sales"),
    });
  });

  it("leaves out app and user-agent tags and app fields when unknown", () => {
    const point = createUserEventPointMapper([], 3)(event(WITHOUT_APP), AT);

    expect(Object.keys(point.tags).sort()).toEqual(
      ["event_action", "host", "origin", "userDirectory", "userFull", "userId"].sort(),
    );
    expect(Object.keys(point.fields)).toEqual(["userFull_field", "userId_field"]);
  });

  it("never lets a configured tag replace the event's own", () => {
    const point = createUserEventPointMapper([{ name: "host", value: "configured" }], 1)(event(), AT);

    expect(point.tags.host).toBe("pro2-win1");
  });
});

describe("createUserEventMessageMapper", () => {
  const config = (postTo: Record<string, unknown>) =>
    userEventsConfig({ sendToMQTT: { enable: true, postTo }, tags: [{ name: "env", value: "prod" }] });

  it("publishes to the everything topic and the command's own topic", () => {
    const toMessages = createUserEventMessageMapper(config({}));

    const messages = toMessages(event());

    expect(messages.map((m) => m.topic)).toEqual([
      "qliksense/userevent",
      "qliksense/userevent/connection/close",
    ]);
    expect(JSON.parse(messages[0]?.payload ?? "")).toEqual({
      messageType: "qseow-proxy-connection",
      host: "pro2-win1",
      command: "Close connection",
      userDir: "userdir",
      userId: "user3",
      origin: "AppAccess",
      context: `/app/${APP_ID}?reloaduri=https...`,
      message:
        "Some text UserAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:58.0) Gecko/20100101 Firefox/58.0'",
      tags: { env: "prod" },
      appId: APP_ID,
      appName: "Sales",
      uaBrowserName: "Firefox",
      uaBrowserMajorVersion: "58",
      uaOsName: "Windows",
      uaOsVersion: "NT 10.0",
    });
    expect(messages[1]?.payload).toBe(messages[0]?.payload);
  });

  it.each([
    ["Start session", "sessionStartTopic"],
    ["Stop session", "sessionStopTopic"],
    ["Open connection", "connectionOpenTopic"],
    ["Close connection", "connectionCloseTopic"],
  ])("publishes %s to its configured %s", (command, key) => {
    const toMessages = createUserEventMessageMapper(
      config({ everythingTopic: { enable: false }, [key]: { topic: `t/${key}` } }),
    );

    expect(toMessages(event(`/qseow-proxy-session/;h;${command};D;U;O;/hub;m`)).map((m) => m.topic)).toEqual([
      `t/${key}`,
    ]);
  });

  it("matches the command exactly and skips disabled topics", () => {
    const toMessages = createUserEventMessageMapper(
      config({ everythingTopic: { enable: false }, sessionStartTopic: { enable: false } }),
    );

    expect(toMessages(event("/qseow-proxy-session/;h;Start session;D;U;O;/hub;m"))).toEqual([]);
    expect(toMessages(event("/qseow-proxy-session/;h;stop session;D;U;O;/hub;m"))).toEqual([]);
  });
});

describe("createUserEventObservabilityMapper", () => {
  it("maps a user event to qs_userEvent attributes followed by the user event tags", () => {
    const toEvent = createUserEventObservabilityMapper({
      tags: [{ name: "env", value: "prod" }],
      scramble: undefined,
    });

    expect(toEvent(event(), AT)).toEqual({
      eventType: "qs_userEvent",
      timestamp: AT,
      attributes: [
        { name: "qs_host", value: "pro2-win1" },
        { name: "qs_event_action", value: "Close connection" },
        { name: "qs_userFull", value: "userdir\\user3" },
        { name: "qs_userDirectory", value: "userdir" },
        { name: "qs_userId", value: "user3" },
        { name: "qs_origin", value: "AppAccess" },
        { name: "qs_appId", value: APP_ID },
        { name: "qs_appName", value: "Sales" },
        { name: "qs_uaBrowserName", value: "Firefox" },
        { name: "qs_uaBrowserMajorVersion", value: "58" },
        { name: "qs_uaOsName", value: "Windows" },
        { name: "qs_uaOsVersion", value: "NT 10.0" },
        { name: "env", value: "prod" },
      ],
    });
  });

  it("scrambles user directory, id and full name with the keyed hash, and nothing else", () => {
    const scramble = createScrambler(SCRAMBLE_KEY);
    const toEvent = createUserEventObservabilityMapper({ tags: [], scramble });

    const attributes = Object.fromEntries(toEvent(event(), AT).attributes.map((a) => [a.name, a.value]));

    expect(attributes.qs_userDirectory).toBe(scramble("userdir"));
    expect(attributes.qs_userId).toBe(scramble("user3"));
    expect(attributes.qs_userFull).toBe(scramble("userdir\\user3"));
    expect(attributes.qs_host).toBe("pro2-win1");
    expect(JSON.stringify(attributes)).not.toContain("user3");
  });
});
