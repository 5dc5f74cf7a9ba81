/**
 * The time-series database is there but cannot be written as configured, and only an operator
 * can change that (InfluxDB 1.x: the database has no retention policy of the configured name,
 * e.g. because another tool created it). Every write would fail until then: the writers retry
 * as for an outage, and the database gate (database-ensuring-series.ts) says once at ERROR what
 * to do: `advice`, with `fields` naming what it is about. The message stays short, since each
 * failed retry's line carries it.
 */
export class DatabaseSetupError extends Error {
  override name = "DatabaseSetupError";

  constructor(
    message: string,
    /** The problem and what an operator can do about it, in full. */
    readonly advice: string,
    readonly fields: Readonly<Record<string, string>>,
  ) {
    super(message);
  }
}
