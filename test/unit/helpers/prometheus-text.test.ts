import { describe, expect, it } from "vitest";
import { parsePrometheusText, sampleValue } from "../../helpers/prometheus-text.ts";

const lines = (...text: string[]) => `${text.join("\n")}\n`;

describe("parsePrometheusText", () => {
  it("reads help, type and samples with labels into one family", () => {
    const text = lines(
      "# HELP steward_udp_messages_total UDP datagrams per queue",
      "# TYPE steward_udp_messages_total counter",
      'steward_udp_messages_total{queue="log_events",outcome="received"} 5',
      'steward_udp_messages_total{queue="log_events",outcome="processed",} 4',
    );

    expect(parsePrometheusText(text)).toEqual([
      {
        name: "steward_udp_messages_total",
        help: "UDP datagrams per queue",
        type: "counter",
        samples: [
          { labels: { queue: "log_events", outcome: "received" }, value: 5 },
          { labels: { queue: "log_events", outcome: "processed" }, value: 4 },
        ],
      },
    ]);
  });

  it("unescapes label values and help text", () => {
    const text = lines(
      "# HELP m a \\\\ b\\nc",
      "# TYPE m gauge",
      'm{path="C:\\\\logs\\\\\\"new\\"\\nline",brace="}",comma=","} 1',
    );

    const [metric] = parsePrometheusText(text);

    expect(metric?.help).toBe("a \\ b\nc");
    expect(metric?.samples[0]?.labels).toEqual({ path: 'C:\\logs\\"new"\nline', brace: "}", comma: "," });
  });

  it("reads NaN (also as prom-client writes it, Nan), +Inf, -Inf, exponents and timestamps", () => {
    const text = lines("a Nan", "b +Inf", "c -Inf", "d 1.5e-3 1700000000000", "e -0.25", "f NaN");

    const metrics = parsePrometheusText(text);

    expect(metrics.map((metric) => metric.samples[0]?.value)).toEqual([
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      0.0015,
      -0.25,
      Number.NaN,
    ]);
    expect(metrics[3]?.samples[0]?.timestampMs).toBe(1_700_000_000_000);
    expect(metrics.every((metric) => metric.type === "untyped")).toBe(true);
  });

  it("keeps a histogram's buckets, sum and count in its family, with their suffix", () => {
    const text = lines(
      "# TYPE gc_seconds histogram",
      'gc_seconds_bucket{le="0.1",kind="minor"} 2',
      'gc_seconds_bucket{le="+Inf",kind="minor"} 3',
      'gc_seconds_sum{kind="minor"} 0.4',
      'gc_seconds_count{kind="minor"} 3',
      "# TYPE gc_seconds_count_other gauge",
      "gc_seconds_count_other 1",
    );

    const [histogram, other] = parsePrometheusText(text);

    expect(histogram?.samples.map((sample) => [sample.suffix, sample.labels.le, sample.value])).toEqual([
      ["_bucket", "0.1", 2],
      ["_bucket", "+Inf", 3],
      ["_sum", undefined, 0.4],
      ["_count", undefined, 3],
    ]);
    expect(other?.name).toBe("gc_seconds_count_other");
  });

  it("keeps a family that declares help and type but has no samples", () => {
    const text = lines("# HELP handles Handles", "# TYPE handles gauge", "", "# a plain comment");

    expect(parsePrometheusText(text)).toEqual([
      { name: "handles", help: "Handles", type: "gauge", samples: [] },
    ]);
  });

  it.each([
    ["a value that is not a float", "m abc"],
    ["a word that is not a number", "m infinite"],
    ["a hexadecimal float", "m 0x1p3"],
    ["a decimal comma", "m 1,5"],
    ["no value", "m"],
    ["a label without quotes", "m{a=b} 1"],
    ["an unterminated label value", 'm{a="b} 1'],
    ["an unknown escape in a label value", 'm{a="\\t"} 1'],
    ["a label given twice", 'm{a="1",a="2"} 1'],
    ["an invalid label name", 'm{1a="x"} 1'],
    ["no separator between labels", 'm{a="1" b="2"} 1'],
    ["an unknown type", "# TYPE m gauges"],
    ["a second TYPE", "# TYPE m gauge\n# TYPE m gauge"],
    ["a second HELP", "# HELP m x\n# HELP m y"],
    ["a TYPE after the first sample", "m 1\n# TYPE m gauge"],
    ["a family split in two", "m 1\nn 1\nm 2"],
    ["a series given twice", 'm{a="1"} 1\nm{a="1"} 2'],
    ["a histogram bucket without le", "# TYPE h histogram\nh_bucket 1"],
    ["a histogram sample without suffix", "# TYPE h histogram\nh 1"],
    ["an invalid timestamp", "m 1 12.5"],
    ["text after the timestamp", "m 1 12 13"],
    ["an unknown escape in HELP", "# HELP m a\\tb"],
  ])("refuses %s", (_, text) => {
    expect(() => parsePrometheusText(`${text}\n`)).toThrow();
  });

  it("refuses an exposition whose last line has no line feed", () => {
    expect(() => parsePrometheusText("m 1")).toThrow(/line feed/);
  });
});

describe("sampleValue", () => {
  it("finds the sample whose labels are exactly the ones asked for", () => {
    const metrics = parsePrometheusText(lines('m{a="1",b="2"} 7', 'm{a="1"} 3'));

    expect(sampleValue(metrics, "m", { b: "2", a: "1" })).toBe(7);
    expect(sampleValue(metrics, "m", { a: "1" })).toBe(3);
    expect(sampleValue(metrics, "m", { a: "2" })).toBeUndefined();
    expect(sampleValue(metrics, "n")).toBeUndefined();
  });
});
