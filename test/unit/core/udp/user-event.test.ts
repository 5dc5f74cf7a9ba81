import { describe, expect, it } from "vitest";
import { applyLayout, splitFields } from "../../../../core/udp/apply-layout.ts";
import {
  USER_CONNECTION_LAYOUT,
  USER_SESSION_LAYOUT,
  type UserLayout,
} from "../../../../core/udp/field-layouts.ts";
import { createScrambler, ScrambleKeyError } from "../../../../core/udp/scramble.ts";
import { createUserAgentParser } from "../../../../core/udp/user-agent.ts";
import {
  appIdFromContext,
  createUserEventEnricher,
  UNKNOWN_APP_NAME,
  type UserEventRecord,
} from "../../../../core/udp/user-event.ts";
import { normaliseUser } from "../../../../core/udp/user-full.ts";
import { APP_ID, appNames, SCRAMBLE_KEY, USER_CONNECTION, USER_SESSION } from "./udp-fixtures.ts";

const record = (text: string, layout: UserLayout = USER_CONNECTION_LAYOUT): UserEventRecord =>
  applyLayout(layout, splitFields(text, layout) ?? []);

describe("createUserEventEnricher", () => {
  it("completes example 1: user, app id and name from the cache, Firefox 58 on Windows", () => {
    const enrich = createUserEventEnricher(appNames({ [APP_ID]: "Sales" }), createUserAgentParser());

    const event = enrich(record(USER_CONNECTION));

    expect(event).toMatchObject({
      user_full: "userdir\\user3",
      appId: APP_ID,
      appName: "Sales",
      uaBrowserName: "Firefox",
      uaBrowserMajorVersion: "58",
      uaOsName: "Windows",
      uaOsVersion: "NT 10.0",
    });
  });

  it("names an app the cache does not know <unknown app name>", () => {
    const enrich = createUserEventEnricher(appNames(), createUserAgentParser());

    expect(enrich(record(USER_SESSION, USER_SESSION_LAYOUT)).appName).toBe(UNKNOWN_APP_NAME);
  });

  it("leaves app and user agent empty when the context and message name none", () => {
    const enrich = createUserEventEnricher(appNames(), createUserAgentParser());

    const event = enrich(
      record("/qseow-proxy-connection/;h;Open connection;D;U;AppAccess;/hub;no agent here"),
    );

    expect(event).toMatchObject({
      appId: "",
      appName: "",
      uaBrowserName: "",
      uaBrowserMajorVersion: "",
      uaOsName: "",
      uaOsVersion: "",
    });
  });
});

describe("appIdFromContext", () => {
  it("takes the UUID after /app/ up to ?, / or #, in lower case", () => {
    expect(appIdFromContext(`/app/${APP_ID.toUpperCase()}?reloaduri=x`)).toBe(APP_ID);
    expect(appIdFromContext(`/app/${APP_ID}/sheet/abc`)).toBe(APP_ID);
    expect(appIdFromContext(`/app/${APP_ID}#x`)).toBe(APP_ID);
    expect(appIdFromContext(`/app/${APP_ID}`)).toBe(APP_ID);
  });

  it("gives '' for other contexts or an invalid id", () => {
    expect(appIdFromContext(`/hub/app/${APP_ID}`)).toBe("");
    expect(appIdFromContext("/app/not-a-uuid?x")).toBe("");
    expect(appIdFromContext("")).toBe("");
  });
});

describe("createUserAgentParser", () => {
  it("reads the agent after UserAgent:, without quotes", () => {
    const parse = createUserAgentParser();

    expect(
      parse(
        "x UserAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15'",
      ),
    ).toEqual({
      browserName: "Safari",
      browserMajorVersion: "17",
      osName: "macOS",
      osVersion: "10.15.7",
    });
  });

  it("returns the cached result for an agent seen before", () => {
    const parse = createUserAgentParser();

    expect(parse("UserAgent: Chrome/91.0")).toBe(parse("other text UserAgent: 'Chrome/91.0'"));
  });

  it("evicts the oldest agent when the cache is full", () => {
    const parse = createUserAgentParser(2);
    const first = parse("UserAgent: Chrome/91.0");
    parse("UserAgent: Firefox/58.0");
    parse("UserAgent: Firefox/59.0");

    expect(parse("UserAgent: Chrome/91.0")).not.toBe(first);
    expect(parse("UserAgent: Chrome/91.0")).toEqual(first);
  });

  it("gives undefined without an agent, and empty names for an agent it cannot read", () => {
    const parse = createUserAgentParser();

    expect(parse("no agent")).toBeUndefined();
    expect(parse("UserAgent: '  '")).toBeUndefined();
    expect(parse("UserAgent: \uFFFD\uFFFD;;")).toEqual({
      browserName: "",
      browserMajorVersion: "",
      osName: "",
      osVersion: "",
    });
  });
});

describe("normaliseUser", () => {
  it("builds DIR\\ID from directory and id, over a given user_full", () => {
    const user = { user_directory: "LAB", user_id: "goran" };

    expect(normaliseUser(user, "OTHER\\x")).toBe("LAB\\goran");
  });

  it("splits a given DIR\\ID when directory and id are both empty", () => {
    const user = { user_directory: "", user_id: "" };

    expect(normaliseUser(user, "LAB\\goran")).toBe("LAB\\goran");
    expect(user).toEqual({ user_directory: "LAB", user_id: "goran" });
  });

  it("gives '' when only one part is known", () => {
    expect(normaliseUser({ user_directory: "LAB", user_id: "" }, "LAB\\goran")).toBe("");
    expect(normaliseUser({ user_directory: "", user_id: "" }, "nobackslash")).toBe("");
    expect(normaliseUser({ user_directory: "", user_id: "" }, "LAB\\")).toBe("");
  });
});

describe("createScrambler", () => {
  it("replaces a value by 16 hex characters of a keyed hash, equal for equal values", () => {
    const scramble = createScrambler(SCRAMBLE_KEY);

    const hashed = scramble("goran");

    expect(hashed).toMatch(/^[0-9a-f]{16}$/);
    expect(scramble("goran")).toBe(hashed);
    expect(scramble("goran2")).not.toBe(hashed);
  });

  it("depends on the key", () => {
    const other = SCRAMBLE_KEY.map((b) => b ^ 0xff);

    expect(createScrambler(other)("goran")).not.toBe(createScrambler(SCRAMBLE_KEY)("goran"));
  });

  it("keeps an empty value empty", () => {
    expect(createScrambler(SCRAMBLE_KEY)("")).toBe("");
  });

  it("refuses a missing or short key", () => {
    expect(() => createScrambler(undefined)).toThrow(ScrambleKeyError);
    expect(() => createScrambler(new Uint8Array(15))).toThrow(ScrambleKeyError);
  });
});
