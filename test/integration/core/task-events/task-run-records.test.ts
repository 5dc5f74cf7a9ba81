/**
 * The records of every task run, its time-series and broker destinations, against Debian's
 * influxd (InfluxDB 1.x) and mosquitto on loopback: the point's tag keys and field keys with their
 * types as the server stores them, the same alert twice as one point, a refusal failing the send
 * with the server's words; and the broker messages as a subscriber receives them.
 */
import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTimeseriesClient } from "../../../../core/adapters/influx/create-timeseries-client.ts";
import { createMqttBrokerClient } from "../../../../core/adapters/mqtt.ts";
import { available, type TaskAlert } from "../../../../core/alerts/task-alert.ts";
import type { TimeseriesClient } from "../../../../core/ports.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { createMqttTaskDestination } from "../../../../core/task-events/mqtt-task-destination.ts";
import { createTimeseriesTaskDestination } from "../../../../core/task-events/timeseries-task-destination.ts";
import { admitted } from "../../../helpers/admitted-destination.ts";
import { until } from "../../../helpers/eventually.ts";
import { type Mosquitto, skipWithoutMosquitto, startMosquitto } from "../../../helpers/mosquitto.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { influxdForSuite } from "../../../helpers/suite-influxd.ts";
import { failedAlert, taskEventsSettings } from "../../../helpers/task-alert-fixture.ts";
import { timeseriesConfig } from "../../../helpers/timeseries-config.ts";

const { skip: noInfluxd, influxd } = influxdForSuite();
const noMosquitto = skipWithoutMosquitto();
const DB = "steward_audit";

const POINTS = taskEventsSettings({
  timeseriesdb: {
    tag: { static: [{ name: "qs_env", value: "lab" }] },
    reloadTaskFailure: { enable: true },
    reloadTaskSuccess: { enable: true, allReloadTasks: { enable: true } },
  },
}).timeseriesdb;

/** The fixture's alert, its run ended a minute ago (within the database's retention). */
function recentAlert(overrides: Partial<TaskAlert> = {}): TaskAlert {
  const base = failedAlert(overrides);
  if (!base.execution.available) return base;
  const stop = Date.now() - 60_000;
  const execution = {
    ...base.execution.value,
    startTime: new Date(stop - 75_000).toISOString(),
    stopTime: new Date(stop).toISOString(),
  };
  return { ...base, execution: available(execution) };
}

async function rows(query: string): Promise<unknown[][]> {
  const answer = await influxd.query(query, DB);
  return answer.results[0]?.series?.[0]?.values ?? [];
}

describe.skipIf(noInfluxd)("task points in InfluxDB 1.x", () => {
  let series: TimeseriesClient;
  beforeAll(async () => {
    series = createTimeseriesClient(timeseriesConfig(1, influxd.port));
    await series.ensureDatabase();
  });

  it("stores Butler's tag keys and field keys with Butler's types, and the same alert twice as one point", async () => {
    const destination = admitted(
      createTimeseriesTaskDestination({ config: POINTS, series, clock: systemClock }),
    );
    const alert = recentAlert();

    await expect(destination.send(alert)).resolves.toEqual({ outcome: "sent", messages: 1 });
    await expect(destination.send(alert)).resolves.toEqual({ outcome: "sent", messages: 1 });

    expect(await rows(`SELECT count("execution_id") FROM "reload_task_failed"`)).toEqual([
      [expect.anything(), 1],
    ]);
    const tagKeys = (await rows(`SHOW TAG KEYS FROM "reload_task_failed"`)).map(([key]) => key);
    expect(tagKeys.sort()).toEqual(
      [
        "app_id",
        "app_name",
        "host",
        "log_level",
        "qs_env",
        "task_executingNodeName",
        "task_executionStatusNum",
        "task_exeuctionStatusText",
        "task_id",
        "task_name",
        "user",
      ].sort(),
    );
    const fieldTypes = Object.fromEntries(await rows(`SHOW FIELD KEYS FROM "reload_task_failed"`));
    expect(fieldTypes).toEqual({
      execution_id: "string",
      log_message: "string",
      log_timestamp: "string",
      reload_log: "string",
      scriptLog: "string",
      task_executionDuration_h: "float",
      task_executionDuration_json: "string",
      task_executionDuration_min: "float",
      task_executionDuration_sec: "float",
      task_executionStartTime_json: "string",
      task_executionStopTime_json: "string",
      task_scriptLogSize: "float",
      task_scriptLogTailCount: "float",
    });
  });

  it("writes a successful reload the dashboards count by the misspelt status tag", async () => {
    const destination = admitted(
      createTimeseriesTaskDestination({ config: POINTS, series, clock: systemClock }),
    );
    await destination.send(recentAlert({ kind: "reloadTaskSuccess" }));
    const found = await rows(
      `SELECT count("log_message") FROM "reload_task_success" WHERE "task_exeuctionStatusText" = 'FinishedFail' AND "qs_env" = 'lab'`,
    );
    expect(found[0]?.[1]).toBe(1);
  });

  it("fails the send with the server's words when it refuses the point, and counts the refusal", async () => {
    const config = taskEventsSettings({
      timeseriesdb: { preloadTaskFailure: { enable: true } },
    }).timeseriesdb;
    const destination = admitted(createTimeseriesTaskDestination({ config, series, clock: systemClock }));
    const alert = recentAlert({ kind: "preloadTaskFailure" });
    const stop = alert.execution.available ? Date.parse(alert.execution.value.stopTime ?? "") : 0;
    // The message stored as a number first, at the same time: the server refuses it as a string.
    await fetch(`http://127.0.0.1:${influxd.port}/write?db=${DB}&rp=audit_rp&precision=ms`, {
      method: "POST",
      body: `preload_task_failed,host=other log_message=1 ${stop}`,
    });

    await expect(destination.send(alert)).rejects.toThrow(/refused the point \(field_type_conflict\)/);

    expect(destination.stats()).toEqual({ failedWrites: 1, refused: { field_type_conflict: 1 } });
  });
});

describe.skipIf(noInfluxd)("task points while InfluxDB is away", () => {
  it("writes the point once the database is back within the retries", async () => {
    const series = createTimeseriesClient(timeseriesConfig(1, influxd.port));
    await series.ensureDatabase();
    const destination = admitted(
      createTimeseriesTaskDestination({
        config: POINTS,
        series,
        clock: systemClock,
        retryDelaysMs: [500, 1000, 2000, 4000],
      }),
    );
    const alert = recentAlert({
      event: { ...failedAlert().event, executionId: "7d0f5a52-1c1d-4d3e-9a7b-2f7c1d2e3f4a" },
    });
    await influxd.stop();

    const sending = destination.send(alert);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await influxd.start();

    await expect(sending).resolves.toEqual({ outcome: "sent", messages: 1 });
    expect(destination.stats().failedWrites).toBeGreaterThanOrEqual(1);
    const found = await rows(
      `SELECT count("log_message") FROM "reload_task_failed" WHERE "execution_id" = '7d0f5a52-1c1d-4d3e-9a7b-2f7c1d2e3f4a'`,
    );
    expect(found[0]?.[1]).toBe(1);
  });

  it("fails the send, saying how often it tried, when the database stays away", async () => {
    const series = createTimeseriesClient(timeseriesConfig(1, 1));
    const destination = admitted(
      createTimeseriesTaskDestination({
        config: POINTS,
        series,
        clock: systemClock,
        retryDelaysMs: [10, 10],
      }),
    );
    await expect(destination.send(recentAlert())).rejects.toThrow(/could not be written in 3 attempts/);
    expect(destination.stats().failedWrites).toBe(3);
  });
});

describe.skipIf(noMosquitto)("task broker messages on mosquitto", () => {
  let broker: Mosquitto;
  beforeAll(async () => {
    broker = await startMosquitto();
  });
  afterAll(async () => {
    await broker?.stop();
  });

  it("publishes the short and the full message of a failed reload", async () => {
    const subscriber = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`);
    const received: { topic: string; message: string }[] = [];
    subscriber.on("message", (topic, payload) => received.push({ topic, message: payload.toString() }));
    await subscriber.subscribeAsync("qliksense/#");
    const client = createMqttBrokerClient({
      brokerHost: "127.0.0.1",
      brokerPort: broker.port,
      logger: recordingLogger(),
    });
    await client.whenConnected(5000);
    const destination = admitted(
      createMqttTaskDestination({
        config: taskEventsSettings({ sendToMQTT: { enable: true } }).sendToMQTT,
        broker: client,
      }),
    );

    await expect(destination.send(failedAlert())).resolves.toEqual({ outcome: "sent", messages: 2 });
    await until(() => received.length === 2);

    expect(received[0]).toEqual({ topic: "qliksense/task_failure", message: "Reload Sales" });
    expect(received[1]?.topic).toBe("qliksense/task_failure_full");
    expect(JSON.parse(received[1]?.message ?? "")).toMatchObject({
      taskName: "Reload Sales",
      qs_taskTags: ["nightly"],
    });
    await client.close();
    await subscriber.endAsync();
  });

  it("fails the send, naming the topic, when the broker is away", async () => {
    const client = createMqttBrokerClient({
      brokerHost: "127.0.0.1",
      brokerPort: 1,
      logger: recordingLogger(),
      reconnectPeriodMs: 60_000,
    });
    const destination = admitted(
      createMqttTaskDestination({
        config: taskEventsSettings({ sendToMQTT: { enable: true } }).sendToMQTT,
        broker: client,
      }),
    );
    await expect(destination.send(failedAlert())).rejects.toThrow(
      /2 of 2 broker messages not published \(qliksense\/task_failure/,
    );
    await client.close();
  });
});
