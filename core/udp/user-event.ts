/**
 * Parsed user activity events and their enrichment: `user_full`, the app id from the context
 * (`/app/<uuid>`, up to `?`, `/` or `#`), the app name from the cache (`<unknown app name>` when
 * the id is not known yet) and the browser and OS of the user agent. Enrichment members are `''`
 * when unknown, so every event has the same shape.
 */
import type { AppNameCache } from "../ports.ts";
import { isUuidText } from "./apply-layout.ts";
import type { LayoutRecord, UserLayout } from "./field-layouts.ts";
import type { UserAgentParser } from "./user-agent.ts";
import { normaliseUser } from "./user-full.ts";

export type UserEventRecord = LayoutRecord<UserLayout>;

export type UserEvent = UserEventRecord & {
  user_full: string;
  appId: string;
  appName: string;
  uaBrowserName: string;
  uaBrowserMajorVersion: string;
  uaOsName: string;
  uaOsVersion: string;
};

export const UNKNOWN_APP_NAME = "<unknown app name>";

const APP_PREFIX = "/app/";

/** The lower-case app id of a context such as `/app/<uuid>?reloaduri=…`, or `''`. */
export function appIdFromContext(context: string): string {
  if (!context.startsWith(APP_PREFIX)) return "";
  let end = APP_PREFIX.length;
  while (end < context.length) {
    const c = context[end];
    if (c === "?" || c === "/" || c === "#") break;
    end++;
  }
  const candidate = context.slice(APP_PREFIX.length, end);
  return isUuidText(candidate) ? candidate.toLowerCase() : "";
}

/** Completes a parsed record into a UserEvent, in place. */
export function createUserEventEnricher(
  appNames: AppNameCache,
  parseUserAgent: UserAgentParser,
): (record: UserEventRecord) => UserEvent {
  return function enrich(record) {
    const event = record as UserEvent;
    event.user_full = normaliseUser(record);
    const appId = appIdFromContext(record.context);
    event.appId = appId;
    event.appName = appId === "" ? "" : (appNames.nameOf(appId) ?? UNKNOWN_APP_NAME);
    const agent = parseUserAgent(record.message);
    event.uaBrowserName = agent?.browserName ?? "";
    event.uaBrowserMajorVersion = agent?.browserMajorVersion ?? "";
    event.uaOsName = agent?.osName ?? "";
    event.uaOsVersion = agent?.osVersion ?? "";
    return event;
  };
}
