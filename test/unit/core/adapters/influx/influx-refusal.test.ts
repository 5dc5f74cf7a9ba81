/**
 * Reading refused writes: each answer as the real servers give it (InfluxDB 1.x as Debian's
 * influxd 1.6 answered on 2026-11-27; 2.x and 3 as their source and documentation show) turns
 * into the same refusal: why, how many, which lines, and whether the rest was stored.
 */
import { describe, expect, it } from "vitest";
import { readRefusal } from "../../../../../core/adapters/influx/influx-refusal.ts";

const NOW = 1795792722167515219n;
const OLD = 1736942400000000000n; // 2025-01-15

const v1 = (error: string) => JSON.stringify({ error });
const v2 = (code: string, message: string) => JSON.stringify({ code, message });

describe("readRefusal: InfluxDB 1.x", () => {
  it("names the oldest lines of a retention refusal, counting what the server dropped", () => {
    const lines = [`m,k=b v=2 ${NOW}`, `m,k=a v=1 ${OLD}`, `m,k=c v=3 ${NOW + 1n}`];

    const refusal = readRefusal(v1("partial write: points beyond retention policy dropped=1"), lines);

    expect(refusal).toEqual({
      reason: "beyond_retention",
      detail: "partial write: points beyond retention policy dropped=1",
      count: 1,
      lines: [1],
      restStored: true,
    });
  });

  it("names every line carrying the conflicting field with the refused type", () => {
    const lines = [
      `m,k=a v="x" ${NOW}`,
      `m,k=a v=4 ${NOW + 1n}`,
      `m,k=b v="y" ${NOW + 2n}`,
      `n,k=a v="z" ${NOW}`,
    ];
    const answer = v1(
      'partial write: field type conflict: input field "v" on measurement "m" is type string, already exists as type float dropped=2',
    );

    expect(readRefusal(answer, lines)).toMatchObject({
      reason: "field_type_conflict",
      count: 2,
      lines: [0, 2],
      restStored: true,
    });
  });

  it("matches the measurement as the server names it, unescaped", () => {
    const lines = [`a\\ b\\,c,k=x f=1 ${NOW}`, `a\\ b\\,c,k=x f="s" ${NOW + 1n}`];
    const answer = v1(
      'partial write: field type conflict: input field "f" on measurement "a b,c" is type string, already exists as type float dropped=1',
    );

    expect(readRefusal(answer, lines)).toMatchObject({ count: 1, lines: [1] });
  });

  it("counts every point over the tag-value limit and names those with the value it names", () => {
    const lines = [`m,k=d v=5 ${NOW}`, `m,k=a v=6 ${NOW + 1n}`, `m,k=e v=7 ${NOW + 2n}`];
    const answer = v1(
      'partial write: max-values-per-tag limit exceeded (3/3): measurement="m" tag="k" value="d" dropped=2',
    );

    expect(readRefusal(answer, lines)).toMatchObject({
      reason: "max_values_per_tag",
      count: 2,
      lines: [0],
      restStored: true,
    });
  });

  it("reads a Go-quoted tag value with escapes", () => {
    const lines = [`q,t\\ k=v2 f=1 ${NOW}`, `q,t\\ k=v\\ 4\\"\\,x f=1 ${NOW + 3n}`];
    const answer =
      '{"error":"partial write: max-values-per-tag limit exceeded (3/3): measurement=\\"q\\" tag=\\"t k\\" value=\\"v 4\\\\\\\\\\\\\\",x\\" dropped=1"}';

    expect(readRefusal(answer, lines)).toMatchObject({ reason: "max_values_per_tag", count: 1, lines: [1] });
  });

  it("counts the unparsable lines of a partial write itself: the server says dropped=0", () => {
    const lines = [`m,k=a v=8 ${NOW}`, `m,k=a\\ v=9 ${NOW + 1n}`, `m,k=b v= ${NOW + 2n}`];
    const answer = v1(
      `partial write: unable to parse 'm,k=a\\ v=9 ${NOW + 1n}': invalid tag format\nunable to parse 'm,k=b v= ${NOW + 2n}': missing field value dropped=0`,
    );

    expect(readRefusal(answer, lines)).toMatchObject({
      reason: "unparsable",
      count: 2,
      lines: [1, 2],
      restStored: true,
    });
  });

  it("knows nothing was stored when no line parsed", () => {
    const lines = [`m,k=a\\ v=9 ${NOW}`];

    expect(readRefusal(v1(`unable to parse 'm,k=a\\ v=9 ${NOW}': invalid tag format`), lines)).toMatchObject({
      reason: "unparsable",
      count: 1,
      lines: [0],
      restStored: false,
    });
  });

  it("takes any other refusal as one of the whole request", () => {
    const lines = [`m v=1 ${NOW}`, `m v=2 ${NOW + 1n}`];

    expect(readRefusal(v1("database name required"), lines)).toEqual({
      reason: "other",
      detail: "database name required",
      count: 2,
      lines: [0, 1],
      restStored: false,
    });
  });
});

describe("readRefusal: InfluxDB 2.x", () => {
  it("reads 2.7.11's retention wording: dropped=N before the database it names", () => {
    const lines = [`home v=1 ${OLD}`, `home v=2 ${NOW}`, `home v=3 ${OLD + 1n}`];
    const answer = v2(
      "unprocessable entity",
      "failure writing points to database: partial write: dropped 2 points outside retention policy of duration 24h0m0s - oldest point home at 2025-01-15T12:00:00Z dropped because it violates a Retention Policy Lower Bound at 2026-11-26T00:00:00Z, newest point home at 2025-01-15T12:00:00.000000001Z dropped because it violates a Retention Policy Lower Bound at 2026-11-26T00:00:00Z dropped=2 for database: 9f282d63c7d3a5c0 for retention policy: autogen",
    );

    expect(readRefusal(answer, lines)).toMatchObject({
      reason: "beyond_retention",
      count: 2,
      lines: [0, 2],
      restStored: true,
    });
  });

  it("reads the older retention wording and a type conflict behind the write handler's prefix", () => {
    const lines = [`m v=1 ${OLD}`, `m v="x" ${NOW}`, `m v=2 ${NOW}`];

    expect(
      readRefusal(
        v2(
          "unprocessable entity",
          "failure writing points to database: partial write: points beyond retention policy dropped=1",
        ),
        lines,
      ),
    ).toMatchObject({ reason: "beyond_retention", count: 1, lines: [0], restStored: true });
    expect(
      readRefusal(
        v2(
          "unprocessable entity",
          'failure writing points to database: partial write: field type conflict: input field "v" on measurement "m" is type string, already exists as type float dropped=1',
        ),
        lines,
      ),
    ).toMatchObject({ reason: "field_type_conflict", count: 1, lines: [1], restStored: true });
  });

  it("knows an unparsable line made the server store nothing of the request", () => {
    const lines = [`m v=1 ${NOW}`, `m v= ${NOW}`, `m v=2 ${NOW}`];

    expect(
      readRefusal(v2("invalid", `unable to parse 'm v= ${NOW}': missing field value`), lines),
    ).toMatchObject({
      reason: "unparsable",
      count: 1,
      lines: [1],
      restStored: false,
    });
  });
});

describe("readRefusal: InfluxDB 3", () => {
  it("reads the listed lines of a partial write, by their text or else their number", () => {
    const lines = [`home v=1 ${NOW}`, `home v="hi" ${NOW}`, `home v=2 ${NOW}`, `home v=true ${NOW}`];
    const answer = JSON.stringify({
      error: "partial write of line protocol occurred",
      data: [
        {
          original_line: `home v="hi" ${NOW}`,
          line_number: 2,
          error_message:
            "invalid column type for column 'v', expected iox::column_type::field::float, got iox::column_type::field::string",
        },
        {
          original_line: "home v=true (as the server printed it)",
          line_number: 4,
          error_message: "invalid column type",
        },
      ],
    });

    expect(readRefusal(answer, lines)).toEqual({
      reason: "field_type_conflict",
      detail: expect.stringContaining("partial write of line protocol occurred: line 2: invalid column type"),
      count: 2,
      lines: [1, 3],
      restStored: true,
    });
  });

  it("reads a parse error listed the same way", () => {
    const lines = [`cpu,host=b val=2 155`, `cpu,host=a val= 123`, `cpu,host=b val=5 199`];
    const answer = JSON.stringify({
      error: "partial write of line protocol occurred",
      data: [
        { original_line: "cpu,host=a val= 123", line_number: 2, error_message: "No fields were provided" },
      ],
    });

    expect(readRefusal(answer, lines)).toMatchObject({
      reason: "unparsable",
      count: 1,
      lines: [1],
      restStored: true,
    });
  });

  it("knows nothing was stored when partial writes are off", () => {
    const lines = [`cpu,host=a val= 123`, `cpu,host=b val=5 124`];
    const answer = JSON.stringify({
      error: "parsing failed for write_lp endpoint",
      data: {
        original_line: "cpu,host=a val= 123",
        line_number: 1,
        error_message: "No fields were provided",
      },
    });

    expect(readRefusal(answer, lines)).toMatchObject({ count: 1, lines: [0], restStored: false });
  });
});
