/**
 * User events as observability-platform events `qs_userEvent`: `qs_host`, `qs_event_action`,
 * `qs_userFull`, `qs_userDirectory`, `qs_userId`, `qs_origin`, and when known `qs_appId`,
 * `qs_appName` and the user-agent attributes, then `userEvents.tags`. As in Butler SOS, the static
 * event attributes and the version are not added to user events. With `scramble` the three user
 * values are replaced by their keyed hash (scramble.ts).
 */
import type { NameValue, ObservabilityEvent } from "../ports.ts";
import type { Scramble } from "./scramble.ts";
import type { UserEvent } from "./user-event.ts";

export const USER_EVENT_TYPE = "qs_userEvent";

export type UserEventObservabilityMapper = (event: UserEvent, timestampMs: number) => ObservabilityEvent;

export interface UserEventObservabilityOptions {
  /** `userEvents.tags`. */
  readonly tags: readonly NameValue[];
  /** Present when `sendToObsPlatform.scramble` is on. */
  readonly scramble: Scramble | undefined;
}

export function createUserEventObservabilityMapper(
  options: UserEventObservabilityOptions,
): UserEventObservabilityMapper {
  const { tags, scramble } = options;
  const user = scramble ?? ((value: string) => value);

  return function toUserObservabilityEvent(event, timestampMs) {
    const attributes: NameValue[] = [
      { name: "qs_host", value: event.host },
      { name: "qs_event_action", value: event.command },
      { name: "qs_userFull", value: user(event.user_full) },
      { name: "qs_userDirectory", value: user(event.user_directory) },
      { name: "qs_userId", value: user(event.user_id) },
      { name: "qs_origin", value: event.origin },
    ];
    if (event.appId !== "") {
      attributes.push({ name: "qs_appId", value: event.appId }, { name: "qs_appName", value: event.appName });
    }
    if (event.uaBrowserName !== "") attributes.push({ name: "qs_uaBrowserName", value: event.uaBrowserName });
    if (event.uaBrowserMajorVersion !== "") {
      attributes.push({ name: "qs_uaBrowserMajorVersion", value: event.uaBrowserMajorVersion });
    }
    if (event.uaOsName !== "") attributes.push({ name: "qs_uaOsName", value: event.uaOsName });
    if (event.uaOsVersion !== "") attributes.push({ name: "qs_uaOsVersion", value: event.uaOsVersion });
    for (const tag of tags) attributes.push(tag);
    return { eventType: USER_EVENT_TYPE, timestamp: timestampMs, attributes };
  };
}
