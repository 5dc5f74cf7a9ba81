/**
 * Shutdown under load, as local/cli/main.ts performs it on SIGTERM: stop the in-process queue (it
 * drains into the destination batchers), then stop the destinations (they flush). Every event
 * the queue accepted must be on disk.
 */

import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createInProcessEventQueue } from "../../../../core/adapters/local/in-process-event-queue.ts";
import { selectDestinations } from "../../../../core/destinations/select-destinations.ts";
import {
  createAcceptedEventHandler,
  startAuditDestinations,
} from "../../../../core/destinations/start-audit-destinations.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { localDestinationAdapters } from "../../../../local/audit/destination-adapters.ts";
import { acceptedEvent, objectDataEvent } from "../../../helpers/audit-events.ts";
import { destinationConfig } from "../../../helpers/destination-config.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { timeseriesConfig } from "../../../helpers/timeseries-config.ts";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "steward-shutdown-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("shutdown under load", () => {
  it("loses no accepted event when the queue and then the writers are stopped mid-stream", async () => {
    const logger = recordingLogger();
    const destinations = await startAuditDestinations({
      destinations: selectDestinations(
        destinationConfig(["parquet", "tablefile", "json"], root),
        timeseriesConfig(1, 1),
        localDestinationAdapters({ cwd: root, logger }),
      ),
      clock: systemClock,
      logger,
    });
    const queue = createInProcessEventQueue(
      {
        maxSize: 500,
        maxConcurrent: 10,
        backpressureThreshold: 80,
        rateLimit: { enable: false, maxPerMinute: 600 },
      },
      { handler: createAcceptedEventHandler(destinations), logger, clock: systemClock },
    );
    let accepted = 0;
    let withObjectData = 0;
    const producing = (async () => {
      for (let i = 0; i < 3000; i += 1) {
        const event = i % 7 === 0 ? objectDataEvent({ objectType: "table", n: i }) : acceptedEvent();
        const result = await queue.enqueue(event).catch(() => "stopped");
        if (result === "queued") {
          accepted += 1;
          if (i % 7 === 0) withObjectData += 1;
        }
        if (i % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    })();

    await new Promise((resolve) => setTimeout(resolve, 30));
    await queue.stop();
    await destinations.stop();
    await producing;

    expect(accepted).toBeGreaterThan(0);
    const connection = await (await DuckDBInstance.create(":memory:")).connect();
    const rows = await connection.runAndReadAll(
      `SELECT count(*)::INTEGER AS n FROM read_parquet('${root}/parquet/**/*.parquet', hive_partitioning = true)`,
    );
    connection.closeSync();
    expect(rows.getRowObjectsJS()).toEqual([{ n: accepted }]);
    expect(await readdir(path.join(root, "json"))).toHaveLength(withObjectData);
    expect(destinations.stats().tablefile).toMatchObject({ buffered: 0, written: accepted });
    expect(logger.at("error")).toEqual([]);
  });
});
