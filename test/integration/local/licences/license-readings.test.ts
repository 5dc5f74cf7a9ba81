/**
 * The licence monitor's readings end to end: the access licences, the server licence and the
 * version read from the simulated platform over mutual TLS, written to Debian's influxd and
 * queried back with their tag and field types as the dashboards read them, the same readings as
 * `steward_license_*` gauges on the scrape registry, and the server licence on the broker
 * (mosquitto).
 */
import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ANALYZER_TOTAL,
  CAPACITY_MINUTES,
  expiryDateIn,
} from "../../../../local/simulated-platform/license-simulation.ts";
import { startTestPlatform, type TestPlatform } from "../../../fixtures/platform/test-platform.ts";
import { until } from "../../../helpers/eventually.ts";
import { type Influxd, skipWithoutInfluxd, startInfluxd } from "../../../helpers/influxd.ts";
import { type Mosquitto, skipWithoutMosquitto, startMosquitto } from "../../../helpers/mosquitto.ts";
import { sampleValue } from "../../../helpers/prometheus-text.ts";
import {
  fieldTypes,
  type LicenceRun,
  licenceConfig,
  rows,
  runOnce,
  tagKeys,
} from "./license-monitor-fixture.ts";

const skip = skipWithoutInfluxd() || skipWithoutMosquitto();
const DATABASE = "licences_e2e";
const SERVER_TOPIC = "qliksense/qliksense_server_license";
const EXPIRE_TOPIC = "qliksense/qliksense_server_license_expire";

let influxd: Influxd;
let broker: Mosquitto;
let platform: TestPlatform;
let subscriber: mqtt.MqttClient;
const received: { topic: string; payload: string }[] = [];
let run: LicenceRun;

beforeAll(async () => {
  if (skip) return;
  [influxd, broker, platform] = await Promise.all([startInfluxd(), startMosquitto(), startTestPlatform()]);
  subscriber = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`);
  subscriber.on("message", (topic, payload) => received.push({ topic, payload: payload.toString() }));
  await subscriber.subscribeAsync("qliksense/#");
  // Expiring within the default 30-day window, so the expiry message goes out too.
  platform.repository.licenses.expiryDate = expiryDateIn(12, Date.now());
  run = await runOnce(
    licenceConfig(
      { platform, influxd, database: DATABASE, brokerPort: broker.port },
      { sendToMQTT: { enable: true } },
    ),
  );
  await until(() => received.length >= 2, 5000);
}, 60_000);

afterAll(async () => {
  await subscriber?.endAsync();
  await Promise.all([influxd?.close(), broker?.stop(), platform?.stop()]);
});

describe.skipIf(skip)("licence readings in InfluxDB 1.x", () => {
  it("calls the repository and the version endpoint over the client certificate", () => {
    const paths = platform.repository.calls.map((call) => `${call.method} ${call.path}`);
    expect(paths).toEqual(["GET /qrs/license/accesstypeoverview", "GET /qrs/license"]);
    expect(platform.repository.calls[0]?.clientCertCn).toBeTruthy();
    expect(platform.servers[0]?.calls.some((call) => call.path === "/v1/systeminfo")).toBe(true);
  });

  it("writes qlik_sense_license per access type: tags license_type and qs_env, every count a float", async () => {
    expect(await tagKeys(influxd, DATABASE, "qlik_sense_license")).toEqual(["license_type", "qs_env"]);
    expect(await fieldTypes(influxd, DATABASE, "qlik_sense_license")).toEqual({
      allocated: "float",
      allocated_minutes: "float",
      available: "float",
      excess: "float",
      quarantined: "float",
      total: "float",
      unavailable_minutes: "float",
      used: "float",
      used_minutes: "float",
    });
    const byType = Object.fromEntries(
      (await rows(influxd, DATABASE, "qlik_sense_license")).map((row) => [row.license_type, row]),
    );
    expect(Object.keys(byType).sort()).toEqual(["analyzer", "analyzer_capacity", "professional"]);
    expect(byType.analyzer).toMatchObject({ qs_env: "lab", total: ANALYZER_TOTAL });
    expect(byType.analyzer_capacity).toMatchObject({ allocated_minutes: CAPACITY_MINUTES, allocated: null });
  });

  it("writes qlik_sense_server_license: boolean expired, string date, float signed days", async () => {
    expect(await tagKeys(influxd, DATABASE, "qlik_sense_server_license")).toEqual(["qs_env"]);
    expect(await fieldTypes(influxd, DATABASE, "qlik_sense_server_license")).toEqual({
      days_until_expiry: "float",
      expiry_date: "string",
      license_expired: "boolean",
    });
    expect(await rows(influxd, DATABASE, "qlik_sense_server_license")).toMatchObject([
      {
        qs_env: "lab",
        license_expired: false,
        expiry_date: expiryDateIn(12, Date.now()),
        days_until_expiry: 12,
      },
    ]);
  });

  it("writes qlik_sense_version with every member a string", async () => {
    expect(await tagKeys(influxd, DATABASE, "qlik_sense_version")).toEqual(["qs_env"]);
    const types = await fieldTypes(influxd, DATABASE, "qlik_sense_version");
    expect(Object.keys(types).sort()).toEqual([
      "content_hash",
      "copyright_year_range",
      "deployment_type",
      "deprecated_product_version",
      "product_name",
      "release_label",
      "sense_id",
      "version",
    ]);
    expect(new Set(Object.values(types))).toEqual(new Set(["string"]));
    expect(await rows(influxd, DATABASE, "qlik_sense_version")).toMatchObject([
      { release_label: "May 2025 Patch 3", version: "14.212.5" },
    ]);
  });
});

describe.skipIf(skip)("licence gauges and broker messages", () => {
  it("publishes the steward_license_* gauges of the run", () => {
    const { metrics } = run;
    expect(sampleValue(metrics, "steward_license_access_total", { license_type: "analyzer" })).toBe(
      ANALYZER_TOTAL,
    );
    expect(
      sampleValue(metrics, "steward_license_access_allocated_minutes", { license_type: "analyzer_capacity" }),
    ).toBe(CAPACITY_MINUTES);
    expect(
      sampleValue(metrics, "steward_license_access_allocated", { license_type: "professional" }),
    ).toBeGreaterThan(0);
    expect(sampleValue(metrics, "steward_license_server_days_until_expiry")).toBe(12);
    expect(sampleValue(metrics, "steward_license_server_expired")).toBe(0);
    // No series without a value: the capacity type has no seat counts.
    expect(run.metricsText).not.toMatch(
      /steward_license_access_allocated\{license_type="analyzer_capacity"\}/,
    );
  });

  it("sends the server licence's state and the expiry text on Butler's topics", () => {
    const state = received.find((message) => message.topic === SERVER_TOPIC);
    expect(JSON.parse(state?.payload ?? "{}")).toEqual({
      licenseExpired: false,
      expiryDateStr: expiryDateIn(12, Date.now()),
      daysUntilExpiry: 12,
    });
    expect(received.filter((message) => message.topic === EXPIRE_TOPIC).map((m) => m.payload)).toEqual([
      `Qlik Sense server license is about to expire in 12 days, on ${expiryDateIn(12, Date.now())}`,
    ]);
  });
});
