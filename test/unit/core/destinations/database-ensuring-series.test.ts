import { describe, expect, it } from "vitest";
import {
  DatabaseNotReadyError,
  ensuringDatabase,
} from "../../../../core/destinations/database-ensuring-series.ts";
import { DatabaseSetupError } from "../../../../core/destinations/database-setup-error.ts";
import { TimeseriesWriteError } from "../../../../core/destinations/timeseries-write-error.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { numberedPoint, recordingSeries } from "../../../helpers/recording-series.ts";

describe("ensuringDatabase", () => {
  it("ensures the database once before the first write, for every writer sharing it", async () => {
    const series = recordingSeries();
    const shared = ensuringDatabase(series);

    await Promise.all([shared.write([numberedPoint(1)]), ensuringDatabase(shared).write([numberedPoint(2)])]);
    await shared.write([numberedPoint(3)]);

    expect(series.ensured).toBe(1);
    expect(series.points()).toHaveLength(3);
  });

  it("ensures it again after a write answered 404 (the database was dropped)", async () => {
    const series = recordingSeries();
    const shared = ensuringDatabase(series);
    series.failNext.push(new TimeseriesWriteError("answered 404: database not found", 404));

    await expect(shared.write([numberedPoint(1)])).rejects.toThrow(/404/);
    await shared.write([numberedPoint(1)]);

    expect(series.ensured).toBe(2);
  });

  it("fails a write whose database cannot be ensured as an outage, never as a refusal of its data", async () => {
    const series = recordingSeries();
    let attempts = 0;
    series.ensureDatabase = async () => {
      attempts += 1;
      if (attempts === 1) throw new TimeseriesWriteError('InfluxDB refused "CREATE DATABASE": x', 400);
    };
    const shared = ensuringDatabase(series);

    const failure = await shared.write([numberedPoint(1)]).catch((error: unknown) => error);
    await shared.write([numberedPoint(1)]);

    expect(failure).toBeInstanceOf(DatabaseNotReadyError);
    expect(failure).not.toBeInstanceOf(TimeseriesWriteError);
    expect(attempts).toBe(2);
    expect(series.points()).toHaveLength(1);
  });

  it("says a database that needs an operator once at ERROR with what to do, and again only after it was solved", async () => {
    const series = recordingSeries();
    const logger = recordingLogger();
    let missing = true;
    series.ensureDatabase = async () => {
      if (missing) throw new DatabaseSetupError("no policy x", "no policy x: create it", { database: "db" });
    };
    const shared = ensuringDatabase(series, { logger });

    const failures = [];
    for (let i = 0; i < 3; i++) failures.push(await shared.write([numberedPoint(i)]).catch((error) => error));
    const saidWhileMissing = logger.at("error").length;
    missing = false;
    await shared.write([numberedPoint(3)]);
    // The database is dropped and made again without the policy: the next write finds it so.
    missing = true;
    series.failNext.push(new TimeseriesWriteError("answered 404: database not found", 404));
    await shared.write([numberedPoint(4)]).catch(() => undefined);
    await shared.write([numberedPoint(5)]).catch(() => undefined);

    expect(failures.every((failure) => failure instanceof DatabaseNotReadyError)).toBe(true);
    expect(saidWhileMissing).toBe(1);
    expect(logger.at("error")).toEqual([
      { level: "error", scope: undefined, message: "no policy x: create it", fields: { database: "db" } },
      { level: "error", scope: undefined, message: "no policy x: create it", fields: { database: "db" } },
    ]);
  });
});
