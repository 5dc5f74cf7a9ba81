/**
 * Logging of events that carry no client version: DEBUG for every event, WARN at most once per
 * source IP per minute carrying `missingVersionCount` (events since the previous WARN for that IP,
 * this one included). Per-IP state is dropped after 15 minutes of silence, so memory stays bounded
 * by the IPs active in the last 15 minutes.
 */

import type { Clock, Logger } from "../ports.ts";

const WARN_INTERVAL_MS = 60_000;
const IDLE_EVICT_MS = 15 * 60_000;

interface IpState {
  lastWarnAt: number;
  lastSeenAt: number;
  /** Events since the last WARN, not yet reported. */
  suppressed: number;
}

export interface MissingVersionEvent {
  type: string;
  eventId: string;
  ip: string;
  serverVersion: string;
}

export interface MissingVersionLog {
  record(event: MissingVersionEvent): void;
}

export function createMissingVersionLog(logger: Logger, clock: Clock): MissingVersionLog {
  const byIp = new Map<string, IpState>();
  let lastSweepAt = clock.now();

  function sweep(now: number): void {
    if (now - lastSweepAt < WARN_INTERVAL_MS) return;
    lastSweepAt = now;
    for (const [ip, state] of byIp) {
      if (now - state.lastSeenAt > IDLE_EVICT_MS) byIp.delete(ip);
    }
  }

  return {
    record(event) {
      const now = clock.now();
      sweep(now);
      if (logger.isLevelEnabled("debug")) {
        logger.debug("Received audit event without client version", { ...event });
      }
      const state = byIp.get(event.ip);
      if (state === undefined || now - state.lastWarnAt >= WARN_INTERVAL_MS) {
        const missingVersionCount = (state?.suppressed ?? 0) + 1;
        byIp.set(event.ip, { lastWarnAt: now, lastSeenAt: now, suppressed: 0 });
        logger.warn(
          "Received audit event(s) without client version; individual events are logged at debug level",
          { ...event, missingVersionCount, windowSeconds: WARN_INTERVAL_MS / 1000 },
        );
        return;
      }
      state.suppressed += 1;
      state.lastSeenAt = now;
    },
  };
}
