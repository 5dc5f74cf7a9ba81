/**
 * Throttled warnings about datagrams that could not be used (malformed, unknown marker): at most
 * one WARN per sender per minute (CONTRACT §7) carrying a 100-character sanitised preview and
 * the number of datagrams suppressed since the previous WARN, so a misconfigured appender is
 * visible without a flood filling the log. State per sender is dropped after 15 quiet minutes
 * (and the oldest beyond 10,000 senders), so memory stays bounded.
 */
import type { Clock, Logger } from "../ports.ts";
import { sanitiseField } from "./sanitise-field.ts";

export const WARN_INTERVAL_MS = 60_000;
export const PREVIEW_LENGTH = 100;
/** A sender quiet this long is forgotten (its suppressed count with it). */
const IDLE_EVICT_MS = 15 * 60_000;
/** Senders remembered at most; beyond this (a spoofing flood) the oldest state is dropped. */
const MAX_SENDERS = 10_000;

interface SenderState {
  lastWarnAt: number;
  lastSeenAt: number;
  suppressed: number;
}

export interface SenderWarnings {
  /** Warns about `text` from `sender` unless that sender was warned about within the last minute. */
  warn(sender: string, message: string, text: string, fields?: Readonly<Record<string, unknown>>): void;
}

export function createSenderWarnings(logger: Logger, clock: Clock): SenderWarnings {
  const senders = new Map<string, SenderState>();
  let lastSweepAt = clock.now();

  function sweep(now: number) {
    if (now - lastSweepAt < WARN_INTERVAL_MS && senders.size < MAX_SENDERS) return;
    lastSweepAt = now;
    for (const [sender, state] of senders) {
      if (now - state.lastSeenAt >= IDLE_EVICT_MS) senders.delete(sender);
    }
    // Still full (a flood of distinct senders): forget the oldest tenth, so that the next sweep is
    // a thousand new senders away rather than one.
    while (senders.size >= MAX_SENDERS * 0.9) senders.delete(senders.keys().next().value as string);
  }

  return {
    warn(sender, message, text, fields) {
      const now = clock.now();
      sweep(now);
      const state = senders.get(sender);
      if (state !== undefined && now - state.lastWarnAt < WARN_INTERVAL_MS) {
        state.suppressed++;
        state.lastSeenAt = now;
        return;
      }
      senders.delete(sender);
      senders.set(sender, { lastWarnAt: now, lastSeenAt: now, suppressed: 0 });
      logger.warn(message, {
        sender,
        preview: sanitiseField(text, PREVIEW_LENGTH),
        suppressedSinceLastWarning: state?.suppressed ?? 0,
        ...fields,
      });
    },
  };
}
