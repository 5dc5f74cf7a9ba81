/**
 * Request schemas of the platform endpoints (valibot). The REST layer validates with them and
 * the OpenAPI document is generated from them. Task ids inside items are plain strings on
 * purpose: a malformed id is reported as invalid in the result, not refused with 400.
 */
import * as v from "valibot";

const nonEmpty = (what: string) =>
  v.pipe(v.string(`${what} must be a string`), v.minLength(1, `${what} must not be empty`));

export const KeyValueStoreItemSchema = v.object({
  type: v.literal("keyvaluestore"),
  payload: v.object({
    namespace: nonEmpty("namespace"),
    key: nonEmpty("key"),
    value: v.string("value must be a string"),
    /** Milliseconds; 0 or absent = no expiry. */
    ttl: v.optional(
      v.pipe(
        v.number("ttl must be a number"),
        v.integer("ttl must be an integer"),
        v.minValue(0, "ttl must be >= 0"),
      ),
      0,
    ),
  }),
});

export const StartTaskIdItemSchema = v.object({
  type: v.literal("starttaskid"),
  payload: v.object({ taskId: v.string("taskId must be a string") }),
});

export const StartTaskTagItemSchema = v.object({
  type: v.literal("starttasktag"),
  payload: v.object({ tag: nonEmpty("tag") }),
});

export const StartTaskCustomPropertyItemSchema = v.object({
  type: v.literal("starttaskcustomproperty"),
  payload: v.object({
    customPropertyName: nonEmpty("customPropertyName"),
    customPropertyValue: v.string("customPropertyValue must be a string"),
  }),
});

export const TaskStartItemSchema = v.variant(
  "type",
  [KeyValueStoreItemSchema, StartTaskIdItemSchema, StartTaskTagItemSchema, StartTaskCustomPropertyItemSchema],
  "type must be one of keyvaluestore, starttaskid, starttasktag, starttaskcustomproperty",
);

/** Body of PUT|POST /v4/reloadtask/{taskId}/start; a missing body is validated as []. */
export const TaskStartBodySchema = v.array(TaskStartItemSchema, "body must be an array of task start items");

export const TaskStartQuerySchema = v.object({
  allTaskIdsMustExist: v.optional(
    v.pipe(
      v.picklist(["true", "false"], "allTaskIdsMustExist must be true or false"),
      v.transform((text) => text === "true"),
    ),
    "false",
  ),
});

const taskIdList = (what: string) =>
  v.optional(v.array(v.string(`${what} items must be strings`), `${what} must be an array`), []);

/** Body of PUT /v4/app/{appId}/reload; a missing body is validated as {}. */
export const AppReloadBodySchema = v.object({
  /** Engine DoReload qMode: 0 default error handling, 1 stop at the first script error, 2 ignore errors. */
  reloadMode: v.optional(v.picklist([0, 1, 2], "reloadMode must be 0, 1 or 2"), 0),
  partialReload: v.optional(v.boolean("partialReload must be a boolean"), false),
  startPlatformTaskOnSuccess: taskIdList("startPlatformTaskOnSuccess"),
  startPlatformTaskOnFailure: taskIdList("startPlatformTaskOnFailure"),
});

export const AppIdParamSchema = v.object({
  appId: v.pipe(
    v.string(),
    v.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "appId must be a GUID"),
  ),
});

export type TaskStartItem = v.InferOutput<typeof TaskStartItemSchema>;
export type AppReloadBody = v.InferOutput<typeof AppReloadBodySchema>;
