/**
 * Reads the engine's health check answer (`GET /engine/healthcheck`) into an EngineHealth. Lenient
 * where engines differ, strict where the agent's measurements depend on a value:
 * - members the agent does not use are ignored and dropped (newer engines add some, e.g.
 *   `mem.totalPhysical`);
 * - every member EngineHealth declares is required with its JSON type: a missing numeric group
 *   (`cache`, `users`, ...) or a number sent as text makes the whole answer malformed rather
 *   than writing zeros the engine never reported;
 * - `started` must be a string but its format is not checked here (an unparsable one gives an empty
 *   uptime, as in Butler SOS).
 */
import * as v from "valibot";
import type { EngineHealth } from "../ports.ts";
import { type ResponseContext, readResponse } from "./response-shape.ts";

const count = v.number();
const ids = v.array(v.string());

const engineHealthSchema = v.object({
  version: v.string(),
  started: v.string(),
  mem: v.object({ committed: count, allocated: count, free: count }),
  cpu: v.object({ total: count }),
  session: v.object({ active: count, total: count }),
  apps: v.object({
    active_docs: ids,
    loaded_docs: ids,
    in_memory_docs: ids,
    calls: count,
    selections: count,
  }),
  users: v.object({ active: count, total: count }),
  cache: v.object({ hits: count, lookups: count, added: count, replaced: count, bytes_added: count }),
  saturated: v.boolean(),
});

/** The health of a 2xx answer's parsed body; PlatformResponseError naming the first problem otherwise. */
export function readEngineHealth(body: unknown, context: ResponseContext): EngineHealth {
  return readResponse(engineHealthSchema, body, context, "a health check");
}
