/**
 * What a time-series database refused of one write request, in one shape for InfluxDB v1, v2
 * and v3 (each adapter reads its server's answer into it, influx-refusal.ts), so that the audit
 * destination and the agent's points share one rule for what happens next
 * (write-accepting-refusals.ts).
 *
 * A refusal is not an outage: the server answered that it will not take certain lines, and
 * writing them again cannot change that. Whatever it did take counts as written.
 */

/**
 * Why lines were refused, as `reason` label values and in log lines:
 * - `beyond_retention`: older than the database's retention policy;
 * - `max_values_per_tag`: a new tag value past InfluxDB 1.x's `max-values-per-tag`;
 * - `field_type_conflict`: a field written with another type than the one it already has;
 * - `unparsable`: the server could not parse the line;
 * - `unencodable`: Steward could not encode the point as line protocol (never sent);
 * - `too_large`: one point alone larger than the server reads in a request (InfluxDB 1.x's
 *   `max-body-size`): a request that is too large is written again in halves, so only a point
 *   that no request can carry ends here;
 * - `other`: any other refusal of the data (a 4xx that is not about set-up or load).
 */
export const REFUSAL_REASONS = [
  "beyond_retention",
  "max_values_per_tag",
  "field_type_conflict",
  "unparsable",
  "unencodable",
  "too_large",
  "other",
] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

export interface TimeseriesRefusal {
  readonly reason: RefusalReason;
  /** The server's own words, shortened: what an operator reads in the log. */
  readonly detail: string;
  /**
   * How many lines of the request were refused. Exact where the server counts them (InfluxDB
   * 1.x and 2.x `dropped=N`, InfluxDB 3's list of lines, the lines named as unparsable).
   */
  readonly count: number;
  /**
   * Indices (0-based, into the request's lines) of the refused lines, as far as the answer lets
   * them be told: best effort (InfluxDB 1.x and 2.x name only the first conflict of a request).
   * May hold fewer than `count` lines, never a line that is not in the request.
   */
  readonly lines: readonly number[];
  /**
   * True when the server stored every line it did not refuse (a partial write); false when it
   * stored nothing of the request.
   */
  readonly restStored: boolean;
}

/** The longest `detail` kept: enough for the reason and the first line the server names. */
export const REFUSAL_DETAIL_CHARS = 300;
