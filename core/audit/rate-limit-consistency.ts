/**
 * Start-up check of the two ingest limiters: a queue limit above the per-IP HTTP limit can never be
 * reached by one client, and one below half of it caps every client well under the HTTP limit. Both
 * are legal but usually a mistake, so the entry point logs a WARN.
 */

export interface LimiterSetting {
  enable: boolean;
  maxPerMinute: number;
}

/** The warnings to log at start; empty when either limiter is off or the pair looks sound. */
export function rateLimitConsistencyWarnings(http: LimiterSetting, queue: LimiterSetting): string[] {
  if (!http.enable || !queue.enable) return [];
  if (queue.maxPerMinute > http.maxPerMinute) {
    return [
      `auditEvents.queue.rateLimit.maxPerMinute (${queue.maxPerMinute}) is higher than auditEvents.rateLimit.maxPerMinute (${http.maxPerMinute}): one client cannot reach it; raise the HTTP limit or lower the queue limit`,
    ];
  }
  if (queue.maxPerMinute > 0 && queue.maxPerMinute < http.maxPerMinute / 2) {
    return [
      `auditEvents.queue.rateLimit.maxPerMinute (${queue.maxPerMinute}) is less than half of auditEvents.rateLimit.maxPerMinute (${http.maxPerMinute}): it is the effective ceiling for all clients together; make sure this is intentional`,
    ];
  }
  return [];
}
