/**
 * Throttled warnings about datagrams that could not be used (malformed, unknown marker): at most
 * one WARN per sender and reason per minute carrying a 100-character sanitised preview and the
 * number of datagrams suppressed since the previous WARN, so a misconfigured appender is visible
 * without a flood filling the log. Each reason has its own minute, so a node that sends malformed
 * datagrams does not hide that it also sends an unknown marker. The state is the log throttle's,
 * bounded however many senders there are.
 */
import { createLogThrottle } from "../logging/index.ts";
import type { Clock, Logger } from "../ports.ts";
import { sanitiseField } from "./sanitise-field.ts";

export const WARN_INTERVAL_MS = 60_000;
export const PREVIEW_LENGTH = 100;

export interface SenderWarnings {
  /**
   * Warns `message` (the reason) about `text` from `sender` unless that sender was warned about
   * for the same reason within the last minute.
   */
  warn(sender: string, message: string, text: string, fields?: Readonly<Record<string, unknown>>): void;
}

export function createSenderWarnings(logger: Logger, clock: Clock): SenderWarnings {
  const throttle = createLogThrottle({ intervalMs: WARN_INTERVAL_MS });
  return {
    warn(sender, message, text, fields) {
      const since = throttle.admit(`${sender}\n${message}`, clock.now());
      if (since === undefined) return;
      logger.warn(message, {
        sender,
        preview: sanitiseField(text, PREVIEW_LENGTH),
        suppressedSinceLastWarning: since - 1,
        ...fields,
      });
    },
  };
}
