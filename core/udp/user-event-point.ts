/**
 * User events as points of measurement `user_events` (as Butler SOS 15 writes it): tags `host`,
 * `event_action` (the command), `userFull`, `userDirectory`, `userId`, `origin`, and when known
 * `appId`, `appName`, `uaBrowserName`, `uaBrowserMajorVersion`, `uaOsName`, `uaOsVersion`, plus
 * `userEvents.tags` (which never replace the event's own tags); string fields `userFull`, `userId`
 * and, with an app, `appId`, `appName` — each also a tag, so named per database version as
 * field-names.ts says (1.x `userFull`, 2.x `appId_field`, 3.x `userFull_field`…). User events carry
 * no timestamp of their own: the point has the receive time.
 */

import type { TimeseriesdbVersion } from "../config/index.ts";
import type { NameValue } from "../ports.ts";
import { type FieldValue, type Point, stringField } from "../shared/line-protocol.ts";
import { fieldNamer } from "./field-names.ts";
import type { UserEvent } from "./user-event.ts";

export const USER_EVENT_MEASUREMENT = "user_events";

const EVENT_TAGS = [
  "host",
  "event_action",
  "userFull",
  "userDirectory",
  "userId",
  "origin",
  "appId",
  "appName",
  "uaBrowserName",
  "uaBrowserMajorVersion",
  "uaOsName",
  "uaOsVersion",
] as const;

export type UserEventPointMapper = (event: UserEvent, timestampMs: number) => Point;

/** `tags`: `userEvents.tags`; `version`: `timeseriesdbConfig.version` (it decides field names). */
export function createUserEventPointMapper(
  tags: readonly NameValue[],
  version: TimeseriesdbVersion,
): UserEventPointMapper {
  const nameOf = fieldNamer(USER_EVENT_MEASUREMENT, version, [...EVENT_TAGS, ...tags.map((tag) => tag.name)]);
  const userFullField = nameOf("userFull");
  const userIdField = nameOf("userId");
  const appIdField = nameOf("appId");
  const appNameField = nameOf("appName");

  return function toUserEventPoint(event, timestampMs) {
    const pointTags: Record<string, string> = {};
    for (const tag of tags) pointTags[tag.name] = tag.value;
    pointTags.host = event.host;
    pointTags.event_action = event.command;
    pointTags.userFull = event.user_full;
    pointTags.userDirectory = event.user_directory;
    pointTags.userId = event.user_id;
    pointTags.origin = event.origin;
    if (event.appId !== "") pointTags.appId = event.appId;
    if (event.appName !== "") pointTags.appName = event.appName;
    if (event.uaBrowserName !== "") pointTags.uaBrowserName = event.uaBrowserName;
    if (event.uaBrowserMajorVersion !== "") pointTags.uaBrowserMajorVersion = event.uaBrowserMajorVersion;
    if (event.uaOsName !== "") pointTags.uaOsName = event.uaOsName;
    if (event.uaOsVersion !== "") pointTags.uaOsVersion = event.uaOsVersion;

    const fields: Record<string, FieldValue> = {
      [userFullField]: stringField(event.user_full),
      [userIdField]: stringField(event.user_id),
    };
    if (event.appId !== "") {
      fields[appIdField] = stringField(event.appId);
      fields[appNameField] = stringField(event.appName);
    }
    return { measurement: USER_EVENT_MEASUREMENT, tags: pointTags, fields, timestampMs };
  };
}
