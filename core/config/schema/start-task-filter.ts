/**
 * `startTaskFilter`: Butler's allow-list of the reload tasks callers may start, through the REST
 * API's task start and the broker's start topic alike (core/platform/start-task-filter.ts applies
 * it). A task id that is not a GUID could never name a task, so it is refused here rather than
 * left to match nothing.
 */
import * as v from "valibot";
import { isGuid } from "../../platform/index.ts";
import { bool, list, nameValueList, section, stringList } from "./primitives.ts";

const taskId = v.pipe(
  v.string(),
  v.check(isGuid, "must be a task id (a GUID such as 7552d9fc-d1bb-4975-9a38-18357de531ea)"),
);

export const startTaskFilterSchema = section({
  enable: bool(false),
  allowTask: section({
    taskId: list(taskId),
    tag: stringList(),
    customProperty: nameValueList(),
  }),
});
