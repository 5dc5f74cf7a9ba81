/**
 * InfluxDB 1.x: `POST /write?db=&rp=&precision=n`, Basic auth when `auth.enable`; on start
 * `CREATE DATABASE ... WITH DURATION ... NAME <rp>` when the database is missing, which makes the
 * configured retention policy its default, so that points written without `rp` keep to it too.
 * A database that exists must have the configured retention policy: without it InfluxDB answers
 * every write `retention policy not found` (500, an outage retried forever), so ensureDatabase
 * fails with a DatabaseSetupError saying what to do instead. Steward does not create the policy
 * there: a database it did not create belongs to whoever did, who chooses its policies. A
 * `max-values-per-tag` refusal is followed by the repair of what InfluxDB 1.x loses beside it
 * (tag-limit-repair.ts).
 */
import type { TimeseriesdbConfig } from "../../config/index.ts";
import { DatabaseSetupError, TimeseriesWriteError } from "../../destinations/index.ts";
import type { TimeseriesClient } from "../../ports.ts";
import { type InfluxConnection, influxConnection, influxRequest, isInfluxDuration } from "./influx-http.ts";
import { lineProtocolWrites } from "./line-protocol-writes.ts";
import { repairTagLimitRefusal } from "./tag-limit-repair.ts";

const TIMEOUT_MS = 10_000;

export function createInfluxV1Client(
  config: TimeseriesdbConfig,
  connection: InfluxConnection = influxConnection(config),
): TimeseriesClient {
  const { dbName, retentionPolicy, auth } = config.v1Config;
  const { base, agent } = connection;
  const headers: Record<string, string> = auth.enable
    ? { Authorization: `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString("base64")}` }
    : {};

  /**
   * Runs an InfluxQL statement (GET for reads, POST for changes). `db` puts the statement and
   * database in a form body rather than the URL: a statement naming many tag values is long.
   */
  async function query(q: string, method: "GET" | "POST", db?: string): Promise<unknown> {
    const url = new URL("/query", base);
    if (db === undefined) url.searchParams.set("q", q);
    const request =
      db === undefined
        ? { method, url, headers, timeoutMs: TIMEOUT_MS, agent }
        : {
            method,
            url,
            headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams({ q, db }).toString(),
            timeoutMs: TIMEOUT_MS,
            agent,
          };
    const { text } = await influxRequest(request);
    const result = JSON.parse(text) as {
      results?: { error?: string; series?: { values?: unknown[][] }[] }[];
    };
    const first = result.results?.[0];
    if (first?.error)
      throw new TimeseriesWriteError(`InfluxDB refused "${q.split(" ", 2).join(" ")}": ${first.error}`, 400);
    return first;
  }

  /** Rejects with DatabaseSetupError when the existing database lacks the configured policy. */
  async function expectRetentionPolicy(): Promise<void> {
    const database = quoteIdentifier(dbName);
    const shown = (await query(`SHOW RETENTION POLICIES ON ${database}`, "GET")) as {
      series?: { values?: unknown[][] }[];
    };
    const policies = (shown.series?.[0]?.values ?? []).map((row) => ({
      name: String(row[0]),
      isDefault: row[4] === true,
    }));
    if (policies.some((policy) => policy.name === retentionPolicy.name)) return;
    const listed = policies
      .map((policy) => `${policy.name}${policy.isDefault ? " (default)" : ""}`)
      .join(", ");
    const duration = isInfluxDuration(retentionPolicy.duration) ? retentionPolicy.duration : "INF";
    const create = `CREATE RETENTION POLICY ${quoteIdentifier(retentionPolicy.name)} ON ${database} DURATION ${duration} REPLICATION 1`;
    const problem = `InfluxDB database ${database} has no retention policy ${quoteIdentifier(retentionPolicy.name)}`;
    throw new DatabaseSetupError(
      problem,
      `${problem} (its policies: ${listed || "none"}), so every write to it fails. Either create the policy in ` +
        `InfluxDB: ${create}; or set timeseriesdbConfig.v1Config.retentionPolicy.name to one of the ` +
        `database's policies, or to "" to write to its default policy. Steward creates a retention ` +
        "policy only in a database it creates itself; until the policy exists, writes are retried.",
      { database: dbName, retentionPolicy: retentionPolicy.name, policies: listed },
    );
  }

  const writeUrl = new URL("/write", base);
  writeUrl.searchParams.set("db", dbName);
  if (retentionPolicy.name !== "") writeUrl.searchParams.set("rp", retentionPolicy.name);
  writeUrl.searchParams.set("precision", "n");

  return {
    async ensureDatabase() {
      const shown = (await query("SHOW DATABASES", "GET")) as { series?: { values?: unknown[][] }[] };
      const names = (shown.series?.[0]?.values ?? []).map((row) => row[0]);
      if (names.includes(dbName)) {
        if (retentionPolicy.name !== "") await expectRetentionPolicy();
        return;
      }
      let statement = `CREATE DATABASE ${quoteIdentifier(dbName)}`;
      if (retentionPolicy.name !== "" && retentionPolicy.duration !== "") {
        if (!isInfluxDuration(retentionPolicy.duration)) {
          throw new TimeseriesWriteError(
            `retention duration ${JSON.stringify(retentionPolicy.duration)} is not an InfluxDB duration`,
            undefined,
          );
        }
        statement += ` WITH DURATION ${retentionPolicy.duration} REPLICATION 1 NAME ${quoteIdentifier(retentionPolicy.name)}`;
      }
      await query(statement, "POST");
    },

    ...lineProtocolWrites({
      url: writeUrl,
      headers,
      timeoutMs: TIMEOUT_MS,
      agent,
      afterRefusal: (refusal, lines, answer, rewrite) =>
        repairTagLimitRefusal(refusal, lines, answer, {
          rewrite,
          async existingValues(measurement, key, values) {
            if (values.length === 0) return new Set();
            const where = values
              .map((value) => `${quoteIdentifier(key)} = ${quoteString(value)}`)
              .join(" OR ");
            const statement = `SHOW TAG VALUES FROM ${quoteIdentifier(measurement)} WITH KEY = ${quoteIdentifier(key)} WHERE ${where}`;
            const shown = (await query(statement, "POST", dbName)) as { series?: { values?: unknown[][] }[] };
            return new Set(
              (shown.series ?? []).flatMap((series) => (series.values ?? []).map((row) => String(row[1]))),
            );
          },
        }),
    }),
  };
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}

function quoteString(value: string): string {
  return `'${value.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
}
