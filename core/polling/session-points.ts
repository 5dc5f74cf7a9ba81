/**
 * A virtual proxy's sessions as time-series points, as Butler SOS writes them, per server × virtual
 * proxy × poll, tagged with the session tags (server tags + `user_session_virtual_proxy` +
 * `user_session_host`, on every version, where Butler SOS left the server tags out on v2) and
 * stamped with the poll time:
 * - `user_session_summary`: `session_count` (integer), `session_user_id_list` (string);
 * - `user_session_list`: `session_user_id_list`, plus `session_count` on v2/v3 as Butler SOS;
 * - `user_session_details`: one per session of a user not excluded, fields `session_id`,
 *   `user_directory`, `user_id` and the extra tags `user_session_id`,
 *   `user_session_user_directory`, `user_session_user_id`.
 * `userSessions.excludeUser` removes users from the detail points and from `session_user_id_list`,
 * never from `session_count`; Butler SOS filtered the details only, and a count that drops excluded
 * users would no longer be the platform's session count. `session_count` is an integer, except on
 * 2.x, where Butler SOS wrote it unsigned (a database it filled refuses a signed integer into it).
 */
import type { TimeseriesdbVersion } from "../config/index.ts";
import type { ProxySession } from "../ports.ts";
import {
  type FieldValue,
  integerField,
  type Point,
  stringField,
  unsignedField,
} from "../shared/line-protocol.ts";
import type { ServerTags } from "./server-tags.ts";
import { type UserExclusion, uniqueUserList } from "./session-users.ts";

export interface SessionPointMapperOptions {
  readonly version: TimeseriesdbVersion;
  /** From `userSessions.excludeUser` (session-users.ts). */
  readonly isExcluded: UserExclusion;
}

/** `tags`: the session tags (server-tags.ts `sessionTags`). */
export type SessionPointMapper = (
  sessions: readonly ProxySession[],
  tags: ServerTags,
  timestampMs: number,
) => Point[];

interface VersionLayout {
  readonly sessionCount: (count: number) => FieldValue;
  /** Whether `user_session_list` has `session_count` too (Butler SOS's 1.x schema has it not). */
  readonly countOnList: boolean;
}

const LAYOUTS: Readonly<Record<TimeseriesdbVersion, VersionLayout>> = {
  1: { sessionCount: integerField, countOnList: false },
  2: { sessionCount: unsignedField, countOnList: true },
  3: { sessionCount: integerField, countOnList: true },
};

export function createSessionPointMapper(options: SessionPointMapperOptions): SessionPointMapper {
  const { isExcluded } = options;
  const { sessionCount: countField, countOnList } = LAYOUTS[options.version];

  return function toSessionPoints(sessions, tags, timestampMs) {
    const included = sessions.filter((s) => !isExcluded(s.userDirectory, s.userId));
    const sessionCount = countField(sessions.length);
    const userList = stringField(uniqueUserList(included));
    const listFields: Record<string, FieldValue> = { session_user_id_list: userList };
    if (countOnList) listFields.session_count = sessionCount;
    const points: Point[] = [
      {
        measurement: "user_session_summary",
        tags,
        fields: { session_count: sessionCount, session_user_id_list: userList },
        timestampMs,
      },
      { measurement: "user_session_list", tags, fields: listFields, timestampMs },
    ];
    for (const session of included) {
      points.push({
        measurement: "user_session_details",
        tags: {
          ...tags,
          user_session_id: session.sessionId,
          user_session_user_directory: session.userDirectory,
          user_session_user_id: session.userId,
        },
        fields: {
          session_id: stringField(session.sessionId),
          user_directory: stringField(session.userDirectory),
          user_id: stringField(session.userId),
        },
        timestampMs,
      });
    }
    return points;
  };
}
