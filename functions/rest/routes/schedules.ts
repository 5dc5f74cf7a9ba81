/**
 * Schedule routes. POST answers 201 with an array holding the
 * new schedule; start/stop answer the schedule; startall/stopall answer all; status is text/plain.
 * POST also takes Butler's `qlikSenseTaskId` for `platformTaskId` (member-aliases.ts).
 */
import * as v from "valibot";
import type { ScheduleManager } from "../../../core/schedules/index.ts";
import { SCHEDULE_CREATE_ALIASES, withMemberAliases } from "../member-aliases.ts";
import { emptyResponse, jsonResponse, textResponse } from "../respond.ts";
import { defineRoute, type RouteSpec } from "../route.ts";

const State = v.picklist(["started", "stopped"]);
const Uuid = v.pipe(v.string(), v.uuid("must be a UUID"), v.metadata({ format: "uuid" }));
const Text = (what: string, max: number) =>
  v.pipe(v.string(), v.minLength(1, `${what} must not be empty`), v.maxLength(max, `${what} is too long`));

export const ScheduleSchema = v.object({
  id: v.string(),
  created: v.pipe(v.string(), v.metadata({ format: "date-time" })),
  name: v.string(),
  cronSchedule: v.string(),
  timezone: v.string(),
  platformTaskId: v.string(),
  startupState: State,
  tags: v.array(v.string()),
  lastKnownState: State,
});

const CreateBody = withMemberAliases(
  v.object({
    name: Text("name", 256),
    cronSchedule: Text("cronSchedule", 256),
    timezone: Text("timezone", 64),
    platformTaskId: Uuid,
    startupState: State,
    tags: v.optional(v.pipe(v.array(Text("tag", 256)), v.maxLength(100, "at most 100 tags")), []),
  }),
  SCHEDULE_CREATE_ALIASES,
);
const IdParams = v.object({ scheduleId: Text("scheduleId", 256) });
const IdQuery = v.object({ id: v.optional(Text("id", 256)) });

const notFound = { description: "Schedule not found" };

/** Local runtime: the store's file cannot be opened (yet), or the disk refused a write. */
const storeUnavailable = {
  description: "The schedule store's file cannot be used for now (local runtime); see Retry-After",
};

export function scheduleRoutes(schedules: ScheduleManager): RouteSpec[] {
  const tag = "Schedules";
  return [
    defineRoute({
      method: "GET",
      path: "/v4/schedules",
      endpoint: "scheduleGet",
      tag,
      summary: "All schedules, or the one with ?id=",
      query: IdQuery,
      responses: {
        503: storeUnavailable,
        200: { description: "Schedules", schema: v.array(ScheduleSchema) },
        404: notFound,
      },
      handler: async ({ query }, c) =>
        jsonResponse(c, query.id === undefined ? await schedules.list() : [await schedules.get(query.id)]),
    }),
    defineRoute({
      method: "POST",
      path: "/v4/schedules",
      endpoint: "scheduleCreate",
      tag,
      summary: "Creates a schedule (cron: 5 fields, or 6 with leading seconds; months 1-12; IANA time zone)",
      body: CreateBody,
      responses: {
        503: storeUnavailable,
        201: { description: "The new schedule, in an array", schema: v.array(ScheduleSchema) },
        400: { description: "Invalid input, cron expression or time zone" },
      },
      handler: async ({ body }, c) => jsonResponse(c, [await schedules.create(body)], 201),
    }),
    defineRoute({
      method: "GET",
      path: "/v4/schedules/status",
      endpoint: "scheduleStatus",
      tag,
      summary:
        'One line per job: <id> cron="<cron>" timezone=<tz> state=<running|stopped> next=<ISO time or ->',
      responses: {
        503: storeUnavailable,
        200: { description: "Scheduler status", text: true },
      },
      handler: async (_input, c) => textResponse(c, await schedules.statusText()),
    }),
    defineRoute({
      method: "PUT",
      path: "/v4/schedules/startall",
      endpoint: "scheduleStart",
      tag,
      summary: "Starts every schedule",
      responses: {
        503: storeUnavailable,
        200: { description: "All schedules", schema: v.array(ScheduleSchema) },
      },
      handler: async (_input, c) => jsonResponse(c, await schedules.startAll()),
    }),
    defineRoute({
      method: "PUT",
      path: "/v4/schedules/stopall",
      endpoint: "scheduleStop",
      tag,
      summary: "Stops every schedule",
      responses: {
        503: storeUnavailable,
        200: { description: "All schedules", schema: v.array(ScheduleSchema) },
      },
      handler: async (_input, c) => jsonResponse(c, await schedules.stopAll()),
    }),
    defineRoute({
      method: "PUT",
      path: "/v4/schedules/{scheduleId}/start",
      endpoint: "scheduleStart",
      tag,
      summary: "Starts a schedule",
      params: IdParams,
      responses: {
        503: storeUnavailable,
        200: { description: "The schedule", schema: ScheduleSchema },
        404: notFound,
      },
      handler: async ({ params }, c) => jsonResponse(c, await schedules.start(params.scheduleId)),
    }),
    defineRoute({
      method: "PUT",
      path: "/v4/schedules/{scheduleId}/stop",
      endpoint: "scheduleStop",
      tag,
      summary: "Stops a schedule",
      params: IdParams,
      responses: {
        503: storeUnavailable,
        200: { description: "The schedule", schema: ScheduleSchema },
        404: notFound,
      },
      handler: async ({ params }, c) => jsonResponse(c, await schedules.stop(params.scheduleId)),
    }),
    defineRoute({
      method: "DELETE",
      path: "/v4/schedules/{scheduleId}",
      endpoint: "scheduleDelete",
      tag,
      summary: "Deletes a schedule",
      params: IdParams,
      responses: {
        503: storeUnavailable,
        204: { description: "Deleted" },
        404: notFound,
      },
      handler: async ({ params }, c) => {
        await schedules.delete(params.scheduleId);
        return emptyResponse(c);
      },
    }),
  ];
}
