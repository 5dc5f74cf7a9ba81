/**
 * The simulated servers' call logs: what tests assert on. Bounded, so that a simulation left
 * running for days (`steward simulate-platform` polled every few seconds) keeps constant memory.
 */

/** Calls kept per log; older ones are dropped first. */
export const CALL_LOG_LIMIT = 1000;

/** One request to a simulated server, as the routes of health and sessions record it. */
export interface SimulatedCall {
  readonly method: string;
  /** Path without the query. */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  /** Request headers, names lower-case (`host` and `connection` left out). */
  readonly headers: Readonly<Record<string, string>>;
  /** Common name of the client certificate. */
  readonly clientCertCn: string | undefined;
}

/** Appends `entry`, dropping the oldest entries beyond CALL_LOG_LIMIT. */
export function pushBounded<T>(log: T[], entry: T): void {
  log.push(entry);
  if (log.length > CALL_LOG_LIMIT) log.splice(0, log.length - CALL_LOG_LIMIT);
}
