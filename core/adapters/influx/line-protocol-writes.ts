/**
 * The write half every InfluxDB version shares: points encoded as line protocol, or lines
 * already encoded, POSTed as UTF-8 text in one request to the version's write endpoint; an
 * empty batch sends nothing. Only the endpoint (path, query, auth header, timeout) differs.
 */
import { encodePoints } from "../../destinations/line-protocol.ts";
import type { TimeseriesWriter } from "../../ports.ts";
import { influxRequest } from "./influx-http.ts";

export interface WriteEndpoint {
  url: URL;
  headers: Record<string, string>;
  timeoutMs: number;
}

export function lineProtocolWrites(endpoint: WriteEndpoint): Pick<TimeseriesWriter, "write" | "writeLines"> {
  const headers = { ...endpoint.headers, "Content-Type": "text/plain; charset=utf-8" };

  async function post(body: string | Uint8Array): Promise<void> {
    await influxRequest({ method: "POST", url: endpoint.url, headers, body, timeoutMs: endpoint.timeoutMs });
  }

  return {
    async write(points) {
      if (points.length === 0) return;
      await post(encodePoints(points));
    },

    async writeLines(body) {
      if (body.byteLength === 0) return;
      await post(body);
    },
  };
}
