/**
 * The repository's task, app, execution result and user objects as task-event enrichment reads
 * them. Lenient on purpose, unlike the app list: a member that is missing or of another type
 * takes a neutral value (`''`, 0, false, an empty list), because an alert with one field empty is
 * worth more than no alert; only an answer that is not an object at all is refused.
 */

import { type CustomPropertyValue, type ExecutionDetail, taskTypeOf } from "../../alerts/index.ts";
import {
  executionStatusText,
  type OwnerReference,
  type RepositoryApp,
  type RepositoryExecution,
  type RepositoryTask,
} from "../../task-events/index.ts";

type Json = Readonly<Record<string, unknown>>;

export const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const text = (value: unknown): string => (typeof value === "string" ? value : "");
const count = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) ? value : 0);
const flag = (value: unknown): boolean => value === true;
const list = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);
const optionalTime = (value: unknown): string | undefined => (text(value) === "" ? undefined : text(value));

/** The repository writes ids in lower case; a copy from elsewhere may not be. */
const id = (value: unknown): string => text(value).toLowerCase();

export function tagNames(value: unknown): string[] {
  return list(value)
    .map((tag) => (isObject(tag) ? text(tag.name) : ""))
    .filter((name) => name !== "");
}

export function customProperties(value: unknown): CustomPropertyValue[] {
  const out: CustomPropertyValue[] = [];
  for (const entry of list(value)) {
    if (!isObject(entry)) continue;
    const name = isObject(entry.definition) ? text(entry.definition.name) : "";
    if (name !== "") out.push({ name, value: text(entry.value) });
  }
  return out;
}

/** The execution's details, oldest first, as the management console lists them. */
function details(value: unknown): ExecutionDetail[] {
  const out: ExecutionDetail[] = [];
  for (const entry of list(value)) {
    if (!isObject(entry)) continue;
    out.push({
      at: text(entry.detailCreatedDate),
      message: text(entry.message),
      detailsType: count(entry.detailsType),
    });
  }
  return out.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

export function readExecution(body: Json): RepositoryExecution {
  const status = count(body.status);
  return {
    executionId: id(body.executionID),
    resultId: id(body.id),
    taskId: id(body.taskID),
    status,
    statusText: executionStatusText(status),
    executingNodeName: text(body.executingNodeName),
    startTime: optionalTime(body.startTime),
    stopTime: optionalTime(body.stopTime),
    durationMs: count(body.duration),
    details: details(body.details),
    scriptLogSize: count(body.scriptLogSize),
    fileReferenceId: id(body.fileReferenceID),
    scriptLogAvailable: flag(body.scriptLogAvailable),
  };
}

export function readTask(body: Json): RepositoryTask {
  const operational = isObject(body.operational) ? body.operational : {};
  const app = isObject(body.app) ? body.app : {};
  const last = isObject(operational.lastExecutionResult) ? operational.lastExecutionResult : undefined;
  return {
    id: id(body.id),
    name: text(body.name),
    taskType: taskTypeOf(body.taskType),
    tags: tagNames(body.tags),
    customProperties: customProperties(body.customProperties),
    isManuallyTriggered: flag(body.isManuallyTriggered),
    isPartialReload: flag(body.isPartialReload),
    maxRetries: count(body.maxRetries),
    modifiedByUserName: text(body.modifiedByUserName),
    modifiedDate: text(body.modifiedDate),
    sessionTimeout: count(body.taskSessionTimeout),
    nextExecution: optionalTime(operational.nextExecution),
    appId: id(app.id),
    lastExecution: last === undefined ? undefined : readExecution(last),
  };
}

export function readOwner(value: unknown): OwnerReference | undefined {
  if (!isObject(value) || id(value.id) === "") return undefined;
  return {
    id: id(value.id),
    name: text(value.name),
    userDirectory: text(value.userDirectory),
    userId: text(value.userId),
  };
}

export function readApp(body: Json): RepositoryApp {
  return {
    id: id(body.id),
    name: text(body.name),
    description: text(body.description),
    fileSize: count(body.fileSize),
    lastReloadTime: optionalTime(body.lastReloadTime),
    modifiedDate: text(body.modifiedDate),
    modifiedByUserName: text(body.modifiedByUserName),
    publishTime: optionalTime(body.publishTime),
    published: flag(body.published),
    streamName: isObject(body.stream) ? text(body.stream.name) : "",
    tags: tagNames(body.tags),
    customProperties: customProperties(body.customProperties),
    owner: readOwner(body.owner),
  };
}

/** Every `email` attribute (the type compared case-insensitively), in the repository's order. */
export function readEmails(body: Json): string[] {
  return list(body.attributes)
    .filter((entry) => isObject(entry) && text(entry.attributeType).toLowerCase() === "email")
    .map((entry) => text((entry as Json).attributeValue).trim())
    .filter((address) => address !== "");
}
