/**
 * The write half every InfluxDB version shares: points encoded as line protocol, or lines
 * already encoded, POSTed as UTF-8 text in one request to the version's write endpoint (with
 * nanosecond precision, which line-protocol.ts writes); an empty batch sends nothing. Only the
 * endpoint (path, query, auth header, timeout) differs.
 *
 * A write the server refuses as data throws TimeseriesWriteError carrying the refusal read from
 * the answer (influx-refusal.ts): which of the request's lines, why, and whether it stored the
 * rest.
 *
 * Before a write of points, each point's line is checked to be read by InfluxDB as exactly one
 * line (encodePoint), so the body splits into as many lines as points: a request never merges
 * points. A point that fails the check is not sent: the write throws, sending nothing, a refusal
 * of those points (`unencodable`, named by index), and the rule every writer shares
 * (write-accepting-refusals.ts) writes the others again at once without them. Lines given
 * already encoded (`writeLines`) were checked one by one when they were encoded (line-store.ts).
 */
import type { Agent as HttpsAgent } from "node:https";
import {
  REFUSAL_DETAIL_CHARS,
  type TimeseriesRefusal,
  TimeseriesWriteError,
} from "../../destinations/index.ts";
import type { TimeseriesClient } from "../../ports.ts";
import { encodePoint, LineProtocolError, type Point } from "../../shared/line-protocol.ts";
import { splitLines } from "../../shared/line-protocol-split.ts";
import { influxRequest } from "./influx-http.ts";
import { readRefusal } from "./influx-refusal.ts";

export interface WriteEndpoint {
  url: URL;
  headers: Record<string, string>;
  timeoutMs: number;
  /** The HTTPS connection's agent, absent for plain http (influx-http.ts). */
  agent?: HttpsAgent | undefined;
  /**
   * Called with a refusal read from an answer, the request's lines and the answer; resolves with
   * the refusal to report (a version's own repair of what its server does, tag-limit-repair.ts).
   */
  afterRefusal?: (
    refusal: TimeseriesRefusal,
    lines: readonly string[],
    answer: string,
    rewrite: (body: string) => Promise<void>,
  ) => Promise<TimeseriesRefusal>;
}

export function lineProtocolWrites(endpoint: WriteEndpoint): Pick<TimeseriesClient, "write" | "writeLines"> {
  const headers = { ...endpoint.headers, "Content-Type": "text/plain; charset=utf-8" };

  async function post(body: string | Uint8Array): Promise<void> {
    try {
      await influxRequest({
        method: "POST",
        url: endpoint.url,
        headers,
        body,
        timeoutMs: endpoint.timeoutMs,
        agent: endpoint.agent,
      });
    } catch (error) {
      // A 413 names no line: the caller writes the points again in smaller requests.
      if (!(error instanceof TimeseriesWriteError && error.refusesData) || error.tooLarge) throw error;
      // Read now: bytes given by the caller are theirs again once this settles.
      const text = typeof body === "string" ? body : Buffer.from(body).toString("utf8");
      const lines = splitLines(text);
      const answer = error.answer ?? "";
      const read = readRefusal(answer, lines);
      const refusal =
        endpoint.afterRefusal === undefined ? read : await endpoint.afterRefusal(read, lines, answer, post);
      throw new TimeseriesWriteError(error.message, error.status, { answer: error.answer, refusal });
    }
  }

  return {
    async write(points) {
      if (points.length === 0) return;
      await post(requestBody(points));
    },

    async writeLines(body) {
      if (body.byteLength === 0) return;
      await post(body);
    },
  };
}

/** The points' lines joined by "\n"; throws the refusal of the points that cannot be one line each. */
function requestBody(points: readonly Point[]): string {
  const lines: string[] = [];
  const unencodable: number[] = [];
  let why = "";
  for (let index = 0; index < points.length; index += 1) {
    try {
      lines.push(encodePoint(points[index] as Point));
    } catch (error) {
      if (!(error instanceof LineProtocolError)) throw error;
      unencodable.push(index);
      why ||= error.message;
    }
  }
  if (unencodable.length === 0) return lines.join("\n");
  const detail = why.slice(0, REFUSAL_DETAIL_CHARS);
  throw new TimeseriesWriteError(`${unencodable.length} point(s) not sent: ${why}`, undefined, {
    refusal: {
      reason: "unencodable",
      detail,
      count: unencodable.length,
      lines: unencodable,
      restStored: false,
    },
  });
}
