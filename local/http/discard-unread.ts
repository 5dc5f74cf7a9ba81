/**
 * Reads what is left of a request body that its answer does not need (a 413 decided from the
 * declared length, a 401 before an upload) and throws it away, so a client still sending reads
 * the answer instead of a connection reset. Bounded by DISCARD_LIMIT_BYTES and a time limit:
 * past either, it stops reading and the caller closes the connection.
 */
import type { IncomingMessage } from "node:http";
import { DISCARD_LIMIT_BYTES } from "../../functions/http/discard-limit.ts";

/** Requests whose body reading already gave up past the bound: never read again. */
const abandoned = new WeakSet<IncomingMessage>();

/** Marks `incoming` as read no further (its connection will be closed after the answer). */
export function abandonBody(incoming: IncomingMessage): void {
  abandoned.add(incoming);
}

const DISCARD_TIMEOUT_MS = 10_000;

/** Resolves true once the whole request has arrived, false when it was given up. */
export function discardUnread(incoming: IncomingMessage, limitBytes = DISCARD_LIMIT_BYTES): Promise<boolean> {
  if (incoming.complete) return Promise.resolve(true);
  if (abandoned.has(incoming) || incoming.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    let read = 0;
    const finish = (whole: boolean) => {
      clearTimeout(timer);
      incoming.off("data", onData);
      incoming.off("end", onEnd);
      incoming.off("close", onClose);
      if (!whole) incoming.pause();
      resolve(whole);
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > limitBytes) finish(false);
    };
    const onEnd = () => finish(true);
    const onClose = () => finish(incoming.complete);
    const timer = setTimeout(() => finish(false), DISCARD_TIMEOUT_MS);
    incoming.once("end", onEnd);
    incoming.once("close", onClose);
    // The answer is decided: nothing else reads this body any more. A reader left attached (the
    // web stream @hono/node-server hands the app, given up on past the body limit) would pause the
    // request again at each chunk, and the rest would never arrive.
    incoming.removeAllListeners("data");
    incoming.on("data", onData);
    incoming.resume();
  });
}
