/**
 * Reads the repository's app list (`GET /qrs/app`): a JSON array of app objects with `id`,
 * `name` and many other members (stream, publish time, privileges...), of which only id and name
 * are kept. Strict on purpose, unlike the task lookups: the list replaces the app-name cache as a
 * whole, so one entry without a string id or name makes the whole answer malformed rather than
 * putting an empty or made-up id into the cache.
 */
import { PlatformResponseError } from "../../platform/index.ts";
import type { PlatformApp } from "../../ports.ts";

/** Where an entry is wrong, for the error message: its index and which member. */
function describeEntry(entry: unknown, index: number): string | undefined {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
    return `entry ${index} is not an object`;
  }
  const { id, name } = entry as { id?: unknown; name?: unknown };
  if (typeof id !== "string" || id === "") return `entry ${index} has no string id`;
  if (typeof name !== "string") return `entry ${index} (${id}) has no string name`;
  return undefined;
}

/** The apps of a 2xx answer's body; throws PlatformResponseError when the body is not an app list. */
export function readRepositoryApps(body: unknown, context: { what: string; status: number }): PlatformApp[] {
  const malformed = (reason: string) =>
    new PlatformResponseError(`repository answered ${context.what} with a malformed app list: ${reason}`, {
      status: context.status,
    });
  if (!Array.isArray(body)) throw malformed(body === undefined ? "empty body" : "not a list");
  const apps: PlatformApp[] = [];
  for (const [index, entry] of body.entries()) {
    const problem = describeEntry(entry, index);
    if (problem !== undefined) throw malformed(problem);
    const { id, name } = entry as { id: string; name: string };
    apps.push({ id, name });
  }
  return apps;
}
