import { describe, expect, it } from "vitest";
import { sessionTags } from "../../../../core/polling/server-tags.ts";
import { createSessionPointMapper } from "../../../../core/polling/session-points.ts";
import { createUserExclusion } from "../../../../core/polling/session-users.ts";
import {
  integerField,
  type Point,
  stringField,
  unsignedField,
} from "../../../../core/shared/line-protocol.ts";
import { SESSIONS, TAGS } from "./polling-fixtures.ts";

const AT = Date.UTC(2026, 2, 1, 8);
const TAGS_S = sessionTags(TAGS, "/hdr", "sense1.example.com:4243");
const NOBODY = createUserExclusion([]);
const SVC = createUserExclusion([{ directory: "LAB", userId: "svc_monitor" }]);

const byMeasurement = (points: Point[], measurement: string) =>
  points.filter((p) => p.measurement === measurement);

describe("createSessionPointMapper", () => {
  it("v1: summary with count and user list, list with the user list only, one detail per session", () => {
    const points = createSessionPointMapper({ version: 1, isExcluded: NOBODY })(SESSIONS, TAGS_S, AT);

    expect(points.slice(0, 2)).toEqual([
      {
        measurement: "user_session_summary",
        tags: TAGS_S,
        fields: {
          session_count: integerField(4),
          session_user_id_list: stringField("LAB\\anna,LAB\\svc_monitor,CORP\\bob"),
        },
        timestampMs: AT,
      },
      {
        measurement: "user_session_list",
        tags: TAGS_S,
        fields: { session_user_id_list: stringField("LAB\\anna,LAB\\svc_monitor,CORP\\bob") },
        timestampMs: AT,
      },
    ]);
    expect(byMeasurement(points, "user_session_details")).toHaveLength(4);
  });

  it.each([
    [2, unsignedField(4)],
    [3, integerField(4)],
  ] as const)(
    "v%d: the list also has session_count (unsigned on 2.x, as Butler SOS wrote it)",
    (version, count) => {
      const points = createSessionPointMapper({ version, isExcluded: NOBODY })(SESSIONS, TAGS_S, AT);

      expect(byMeasurement(points, "user_session_list")[0]?.fields).toEqual({
        session_user_id_list: stringField("LAB\\anna,LAB\\svc_monitor,CORP\\bob"),
        session_count: count,
      });
      expect(byMeasurement(points, "user_session_summary")[0]?.fields.session_count).toEqual(count);
    },
  );

  it.each([1, 2, 3] as const)("v%d: every point has the server tags and the session tags", (version) => {
    const points = createSessionPointMapper({ version, isExcluded: NOBODY })(SESSIONS, TAGS_S, AT);

    for (const point of points) {
      expect(point.tags).toMatchObject({
        ...TAGS,
        user_session_virtual_proxy: "/hdr",
        user_session_host: "sense1.example.com:4243",
      });
      expect(point.timestampMs).toBe(AT);
    }
  });

  it("writes a detail point with the session's fields and extra tags", () => {
    const points = createSessionPointMapper({ version: 3, isExcluded: NOBODY })(SESSIONS, TAGS_S, AT);

    expect(byMeasurement(points, "user_session_details")[3]).toEqual({
      measurement: "user_session_details",
      tags: {
        ...TAGS_S,
        user_session_id: "e1a1f0a8-0c7e-4c1b-9d9e-000000000004",
        user_session_user_directory: "CORP",
        user_session_user_id: "bob",
      },
      fields: {
        session_id: stringField("e1a1f0a8-0c7e-4c1b-9d9e-000000000004"),
        user_directory: stringField("CORP"),
        user_id: stringField("bob"),
      },
      timestampMs: AT,
    });
  });

  it("leaves excluded users out of the details and the user lists, not out of the counts", () => {
    const points = createSessionPointMapper({ version: 2, isExcluded: SVC })(SESSIONS, TAGS_S, AT);

    expect(byMeasurement(points, "user_session_summary")[0]?.fields).toEqual({
      session_count: unsignedField(4),
      session_user_id_list: stringField("LAB\\anna,CORP\\bob"),
    });
    expect(byMeasurement(points, "user_session_list")[0]?.fields).toEqual({
      session_user_id_list: stringField("LAB\\anna,CORP\\bob"),
      session_count: unsignedField(4),
    });
    expect(byMeasurement(points, "user_session_details").map((p) => p.tags.user_session_user_id)).toEqual([
      "anna",
      "anna",
      "bob",
    ]);
  });

  it("writes a zero summary and list and no details for no sessions", () => {
    const points = createSessionPointMapper({ version: 1, isExcluded: NOBODY })([], TAGS_S, AT);

    expect(points.map((p) => p.measurement)).toEqual(["user_session_summary", "user_session_list"]);
    expect(points[0]?.fields).toEqual({
      session_count: integerField(0),
      session_user_id_list: stringField(""),
    });
  });
});
