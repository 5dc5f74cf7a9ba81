/**
 * Checks a platform answer's JSON against a valibot schema and, when it does not fit, says where
 * and what was expected, for a PlatformResponseError. The message names the member path and the
 * JSON type received, never the value: answers carry session ids, which are credentials.
 */
import * as v from "valibot";
import { PlatformResponseError } from "./errors.ts";

/** Who answered what, for the error message: e.g. `engine health check at host:4747`, `GET /engine/healthcheck`. */
export interface ResponseContext {
  readonly where: string;
  readonly call: string;
  readonly status: number;
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (value === undefined) return "nothing";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** `mem.free: expected number, got a string` or `cache: missing` (the first problem only). */
export function describeShapeIssue(issue: v.BaseIssue<unknown>): string {
  const path = v.getDotPath(issue) ?? "";
  const where = path === "" ? "body" : path;
  // valibot reports a missing member as an object issue expecting the key's name.
  if (issue.type === "object" && issue.input === undefined && path !== "") return `${where}: missing`;
  return `${where}: expected ${issue.expected ?? "another value"}, got ${jsonType(issue.input)}`;
}

/** The body as the schema's output; a PlatformResponseError naming the first problem otherwise. */
export function readResponse<S extends v.GenericSchema>(
  schema: S,
  body: unknown,
  context: ResponseContext,
  what: string,
): v.InferOutput<S> {
  const result = v.safeParse(schema, body, { abortEarly: true });
  if (result.success) return result.output;
  const problem = result.issues[0] === undefined ? "unreadable" : describeShapeIssue(result.issues[0]);
  throw new PlatformResponseError(
    `${context.where} answered ${context.call} with ${what} of an unexpected shape (${problem})`,
    { status: context.status },
  );
}
