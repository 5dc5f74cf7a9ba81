import type { Schedule } from "../ports.ts";

/** Creation order (how schedules are listed everywhere): by `created`, then `id` for ties. */
export function byCreation(a: Schedule, b: Schedule): number {
  if (a.created !== b.created) return a.created < b.created ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
