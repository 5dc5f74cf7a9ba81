/**
 * Reads a virtual proxy's session list (`GET /qps<prefix>/session`): a JSON array of
 * `{UserDirectory, UserId, SessionId, Attributes[]}`. The three strings are required in every entry
 * (an entry without them would count a session the agent cannot attribute, so the whole answer is
 * malformed); `Attributes` and any other member are not used and not checked. `raw` keeps the
 * answer as received, for the message broker.
 */
import * as v from "valibot";
import type { ProxySessionList } from "../ports.ts";
import { type ResponseContext, readResponse } from "./response-shape.ts";

const proxySessionsSchema = v.array(
  v.object({ UserDirectory: v.string(), UserId: v.string(), SessionId: v.string() }),
);

/** The sessions of a 2xx answer's parsed body; PlatformResponseError naming the first problem otherwise. */
export function readProxySessions(body: unknown, context: ResponseContext): ProxySessionList {
  const entries = readResponse(proxySessionsSchema, body, context, "a session list");
  return {
    sessions: entries.map((entry) => ({
      userDirectory: entry.UserDirectory,
      userId: entry.UserId,
      sessionId: entry.SessionId,
    })),
    raw: body,
  };
}
