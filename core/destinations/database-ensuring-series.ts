/**
 * A time-series client that makes sure its database exists before it writes: created (or found)
 * once for everyone writing through it, before the first write, and again after a write answered
 * 404 (the database or bucket was dropped while Steward ran). The agent's parts share one, so
 * every writer of points or interval counters finds its database there, whichever of them writes
 * first and whatever else the configuration switches on.
 *
 * A database that cannot be ensured is an outage for the write that needed it, never a refusal of
 * that write's data (an InfluxDB 1.x `CREATE DATABASE` refused with 400 says nothing about the
 * points): the write fails with DatabaseNotReadyError, and the caller retries as for any outage.
 * One that needs an operator (DatabaseSetupError: a database without the configured retention
 * policy) is said once at ERROR with what to do, and again only if it comes back after it was
 * solved: the retries' own failures, logged by each writer, would not say it.
 */
import type { Logger, TimeseriesClient } from "../ports.ts";
import { DatabaseSetupError } from "./database-setup-error.ts";
import { TimeseriesWriteError } from "./timeseries-write-error.ts";

/** ensureDatabase failed: an outage or a set-up problem, never a refusal of the write's data. */
export class DatabaseNotReadyError extends Error {
  override name = "DatabaseNotReadyError";
}

/** Writers that already ensure their database: wrapping one again returns it as it is. */
const ensuring = new WeakSet<TimeseriesClient>();

export interface EnsuringDatabaseOptions {
  /** Where a set-up problem is said at ERROR; the first wrapper of a writer is the one that says it. */
  logger?: Logger | undefined;
}

export function ensuringDatabase(
  series: TimeseriesClient,
  options: EnsuringDatabaseOptions = {},
): TimeseriesClient {
  if (ensuring.has(series)) return series;
  let ensured: Promise<void> | undefined;
  let setupProblemSaid = false;

  function ensureDatabase(): Promise<void> {
    ensured ??= series.ensureDatabase().then(
      () => {
        setupProblemSaid = false;
      },
      (error: unknown) => {
        ensured = undefined;
        if (error instanceof DatabaseSetupError && !setupProblemSaid) {
          setupProblemSaid = true;
          options.logger?.error(error.advice, error.fields);
        }
        throw error;
      },
    );
    return ensured;
  }

  async function writeEnsured(write: () => Promise<void>): Promise<void> {
    try {
      await ensureDatabase();
    } catch (error) {
      throw new DatabaseNotReadyError("the time-series database could not be ensured", { cause: error });
    }
    try {
      await write();
    } catch (error) {
      if (error instanceof TimeseriesWriteError && error.status === 404) ensured = undefined;
      throw error;
    }
  }

  const wrapped: TimeseriesClient = {
    ensureDatabase,
    write: (points) => writeEnsured(() => series.write(points)),
    writeLines: (body) => writeEnsured(() => series.writeLines(body)),
  };
  ensuring.add(wrapped);
  return wrapped;
}
