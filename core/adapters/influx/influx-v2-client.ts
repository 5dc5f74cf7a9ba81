/**
 * InfluxDB 2.x: `POST /api/v2/write?org=&bucket=&precision=ns` with `Authorization: Token`; on
 * start, looks up the org and creates the bucket with its retention when missing.
 */
import type { TimeseriesdbConfig } from "../../config/index.ts";
import { TimeseriesWriteError } from "../../destinations/index.ts";
import type { TimeseriesClient } from "../../ports.ts";
import { durationSeconds, type InfluxConnection, influxConnection, influxRequest } from "./influx-http.ts";
import { lineProtocolWrites } from "./line-protocol-writes.ts";

const TIMEOUT_MS = 10_000;

export function createInfluxV2Client(
  config: TimeseriesdbConfig,
  connection: InfluxConnection = influxConnection(config),
): TimeseriesClient {
  const { org, bucket, description, token, retentionDuration } = config.v2Config;
  const { base, agent } = connection;
  const auth = { Authorization: `Token ${token}` };

  const writeUrl = new URL("/api/v2/write", base);
  writeUrl.searchParams.set("org", org);
  writeUrl.searchParams.set("bucket", bucket);
  writeUrl.searchParams.set("precision", "ns");

  return {
    async ensureDatabase() {
      const orgsUrl = new URL("/api/v2/orgs", base);
      orgsUrl.searchParams.set("org", org);
      const orgs = JSON.parse(
        (await influxRequest({ method: "GET", url: orgsUrl, headers: auth, timeoutMs: TIMEOUT_MS, agent }))
          .text,
      ) as {
        orgs?: { id: string; name: string }[];
      };
      const orgId = orgs.orgs?.find((candidate) => candidate.name === org)?.id;
      if (orgId === undefined)
        throw new TimeseriesWriteError(`InfluxDB organisation ${JSON.stringify(org)} not found`, 404);

      const bucketsUrl = new URL("/api/v2/buckets", base);
      bucketsUrl.searchParams.set("orgID", orgId);
      bucketsUrl.searchParams.set("name", bucket);
      const buckets = JSON.parse(
        (await influxRequest({ method: "GET", url: bucketsUrl, headers: auth, timeoutMs: TIMEOUT_MS, agent }))
          .text,
      ) as { buckets?: { name: string }[] };
      if (buckets.buckets?.some((candidate) => candidate.name === bucket)) return;

      const everySeconds = durationSeconds(retentionDuration);
      await influxRequest({
        method: "POST",
        url: new URL("/api/v2/buckets", base),
        headers: { ...auth, "Content-Type": "application/json" },
        body: JSON.stringify({
          orgID: orgId,
          name: bucket,
          description,
          retentionRules: everySeconds > 0 ? [{ type: "expire", everySeconds }] : [],
        }),
        timeoutMs: TIMEOUT_MS,
        agent,
      });
    },

    ...lineProtocolWrites({ url: writeUrl, headers: auth, timeoutMs: TIMEOUT_MS, agent }),
  };
}
