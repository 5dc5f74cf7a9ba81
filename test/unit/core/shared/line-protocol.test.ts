import { describe, expect, it } from "vitest";
import { readLine } from "../../../../core/adapters/influx/line-protocol-lines.ts";
import { extractAuditFacts } from "../../../../core/audit/audit-facts.ts";
import { toAuditPoint } from "../../../../core/destinations/audit-point.ts";
import { eventTimeOffsetNs } from "../../../../core/destinations/event-time-offset.ts";
import {
  booleanField,
  encodePoint,
  encodePoints,
  floatField,
  integerField,
  LineProtocolError,
  stringField,
  unsignedField,
} from "../../../../core/shared/line-protocol.ts";
import { splitLines } from "../../../../core/shared/line-protocol-split.ts";
import { acceptedEvent } from "../../../helpers/audit-events.ts";
import { LineProtocolSyntaxError, parseLineProtocol } from "../../../helpers/line-protocol-parser.ts";

describe("encodePoint", () => {
  it("writes typed fields, sorted tags and the ms timestamp in nanoseconds", () => {
    const line = encodePoint({
      measurement: "m",
      tags: { b: "2", a: "1" },
      fields: { f: floatField(1.5), whole: floatField(3), n: integerField(7), ok: booleanField(true) },
      timestampMs: 1700000000123,
    });

    expect(line).toBe("m,a=1,b=2 f=1.5,whole=3,n=7i,ok=true 1700000000123000000");
  });

  it("adds the nanoseconds within the millisecond, also before 1970", () => {
    const at = (timestampMs: number, subMsNs: number) =>
      encodePoint({ measurement: "m", tags: {}, fields: { n: integerField(1) }, timestampMs, subMsNs }).split(
        " ",
      )[2];

    expect(at(1700000000123, 42)).toBe("1700000000123000042");
    expect(at(1700000000123, 999_999)).toBe("1700000000123999999");
    expect(at(0, 5)).toBe("5");
    expect(at(-1, 5)).toBe("-999995");
  });

  it("escapes measurement, tag and field keys, and string values as InfluxDB parses them", () => {
    const line = encodePoint({
      measurement: "audit event,x",
      tags: { "app name": "Sales, North=1", empty: "" },
      fields: { "s k": stringField('say "hi" \\ there'), "a=b": integerField(1) },
    });

    expect(line).toBe(
      'audit\\ event\\,x,app\\ name=Sales\\,\\ North\\=1 s\\ k="say \\"hi\\" \\\\ there",a\\=b=1i',
    );
  });

  it("rejects a point without fields and non-finite floats", () => {
    expect(() => encodePoint({ measurement: "m", tags: {}, fields: {} })).toThrow(LineProtocolError);
    expect(() => encodePoint({ measurement: "m", tags: {}, fields: { x: floatField(Number.NaN) } })).toThrow(
      LineProtocolError,
    );
    expect(() => encodePoint({ measurement: "m", tags: {}, fields: { x: integerField(1.5) } })).toThrow(
      LineProtocolError,
    );
  });

  it("writes an unsigned integer with u, for InfluxDB 2.x fields Butler SOS wrote unsigned, and refuses a negative one", () => {
    const line = encodePoint({ measurement: "apps", tags: {}, fields: { calls: unsignedField(4567) } });

    expect(line).toBe("apps calls=4567u");
    expect(parseLineProtocol(line)[0]?.fields).toEqual({ calls: { type: "unsigned", value: 4567 } });
    expect(() => encodePoint({ measurement: "m", tags: {}, fields: { x: unsignedField(-1) } })).toThrow(
      LineProtocolError,
    );
    expect(() => encodePoint({ measurement: "m", tags: {}, fields: { x: unsignedField(1.5) } })).toThrow(
      LineProtocolError,
    );
  });
});

describe("encodePoint against a strict line-protocol parser", () => {
  const awkward = [
    "plain",
    "with space",
    "a,b",
    "k=v",
    'say "hi"',
    "back\\slash",
    "東京 📈",
    "=,= ,",
    "LAB\\anna",
  ];

  it.each(awkward)(
    "round-trips %j as measurement, tag key, tag value, field key and string value",
    (text) => {
      const line = encodePoint({
        measurement: text,
        tags: { [text]: text, other: "1" },
        fields: { [text]: stringField(`${text}\n"${text}"\\`), n: integerField(-3) },
        timestampMs: 1,
      });

      expect(parseLineProtocol(line)).toEqual([
        {
          measurement: text,
          tags: { [text]: text, other: "1" },
          fields: {
            [text]: { type: "string", value: `${text}\n"${text}"\\` },
            n: { type: "integer", value: -3 },
          },
          timestamp: 1,
        },
      ]);
    },
  );

  it("has the stand-in's parser refuse what InfluxDB refuses", () => {
    expect(() => parseLineProtocol("m,t=a b v=1")).toThrow(LineProtocolSyntaxError);
    expect(() => parseLineProtocol('m v="open')).toThrow(LineProtocolSyntaxError);
    expect(() => parseLineProtocol("m v=1x")).toThrow(LineProtocolSyntaxError);
    expect(() => parseLineProtocol("m,t= v=1")).toThrow(LineProtocolSyntaxError);
    expect(() => parseLineProtocol("m v=-1u")).toThrow(LineProtocolSyntaxError);
  });
});

describe("toAuditPoint", () => {
  it("maps tags and fields as Butler SOS does, static tags overwriting dynamic ones", () => {
    const event = acceptedEvent();

    const point = toAuditPoint(extractAuditFacts(event), {
      measurementName: "audit_event",
      staticTags: [
        { name: "appName", value: "override" },
        { name: "env", value: "prod" },
      ],
    });

    expect(point.tags).toEqual({
      eventType: "object.view.duration",
      auditEventSchemaVersion: "1",
      user: "UserDirectory=LAB; UserId=goran",
      userDirectory: "LAB",
      userId: "goran",
      appId: "0a1b2c3d-0000-4000-8000-000000000001",
      appName: "override",
      env: "prod",
    });
    expect(point.fields).toEqual({
      eventId: stringField(event.envelope.eventId),
      correlationId: stringField("1777868693436"),
      selectionTxnId: stringField("5f0c1c5e-2a59-4f4f-9d0e-0b7b8a1c2d3e"),
      sheetId: stringField("sheet-1"),
      sheetName: stringField("Overview"),
      objectId: stringField("obj-1"),
      enteredAt: stringField("2026-03-08T16:46:24.681Z"),
      leftAt: stringField("2026-03-08T16:46:26.181Z"),
      durationMs: floatField(1500),
      dataStateId: floatField(1777868693436),
      visible: booleanField(false),
    });
    expect(point.timestampMs).toBe(Date.parse("2026-03-08T16:46:26.181Z"));
    expect(point.subMsNs).toBe(eventTimeOffsetNs(event.envelope.eventId));
  });

  it("keeps a bare event's eventId as its field, so InfluxDB accepts the point", () => {
    const bare = acceptedEvent({ type: "navigation.sheet.loaded", payload: {}, correlationId: "" });

    const point = toAuditPoint(extractAuditFacts(bare), { measurementName: "", staticTags: [] });

    expect(point.measurement).toBe("audit_event");
    expect(point.fields).toEqual({ eventId: stringField(bare.envelope.eventId) });
  });

  it("gives an event with nothing to store an eventCount field so InfluxDB accepts it", () => {
    const bare = acceptedEvent({
      type: "navigation.sheet.loaded",
      payload: {},
      eventId: "",
      correlationId: "",
    });

    const point = toAuditPoint(extractAuditFacts(bare), { measurementName: "", staticTags: [] });

    expect(point.fields).toEqual({ eventCount: integerField(1) });
    expect(point.subMsNs).toBeUndefined();
  });
});

describe("encodePoint: backslashes, line breaks and tabs in names", () => {
  const tagLine = (value: string) =>
    encodePoint({ measurement: "m", tags: { t: value }, fields: { n: integerField(1) } });

  it.each([
    ["a trailing backslash, dropped", "x\\", "m,t=x n=1i"],
    ["several trailing backslashes, all dropped", "x\\\\\\", "m,t=x n=1i"],
    ["a backslash before a comma, doubled", "a\\,b", "m,t=a\\\\\\,b n=1i"],
    ["a backslash before =, doubled", "a\\=b", "m,t=a\\\\\\=b n=1i"],
    ["a backslash before a space, doubled", "a\\ b", "m,t=a\\\\\\ b n=1i"],
    ["two backslashes before a comma, each doubled", "a\\\\,b", "m,t=a\\\\\\\\\\,b n=1i"],
    ["two backslashes elsewhere, as they are", "\\\\server\\share", "m,t=\\\\server\\share n=1i"],
    ["a backslash before a quote, as it is", 'a\\"b', 'm,t=a\\"b n=1i'],
    ["the datagram's directory", "LAB y=", "m,t=LAB\\ y\\= n=1i"],
    ["line breaks and a tab, as spaces", "a\r\nb\tc", "m,t=a\\ \\ b\\ c n=1i"],
    ["a backslash before a line break, doubled as before a space", "x\\\n", "m,t=x\\\\\\  n=1i"],
    ["unicode, as it is", "東京 📈 Ünïcødé", "m,t=東京\\ 📈\\ Ünïcødé n=1i"],
  ])("writes %s", (_name, value, line) => {
    expect(tagLine(value)).toBe(line);
  });

  it("leaves out a tag whose key or value is nothing but backslashes, as an empty one", () => {
    const line = encodePoint({
      measurement: "m",
      tags: { t: "\\", "\\\\": "v", u: "" },
      fields: { n: integerField(1) },
    });

    expect(line).toBe("m n=1i");
  });

  it("refuses a measurement or field key that is nothing but backslashes, as an empty one", () => {
    expect(() => encodePoint({ measurement: "\\\\", tags: {}, fields: { n: integerField(1) } })).toThrow(
      LineProtocolError,
    );
    expect(() => encodePoint({ measurement: "m", tags: {}, fields: { "\\": integerField(1) } })).toThrow(
      /empty field key/,
    );
    expect(() => encodePoint({ measurement: "m", tags: {}, fields: { "": integerField(1) } })).toThrow(
      /empty field key/,
    );
  });

  it("doubles a backslash before a quote in the measurement and field keys, where InfluxDB unescapes it", () => {
    const line = encodePoint({
      measurement: 'm\\"x\\=y\\',
      tags: { 'k\\"': 'v\\"' },
      fields: { 'f\\"\\,g\\': integerField(1) },
    });

    expect(line).toBe('m\\\\"x\\\\=y,k\\"=v\\" f\\\\"\\\\\\,g=1i');
  });

  it("keeps string field values whole: quotes and backslashes escaped, line breaks as they are", () => {
    const line = encodePoint({
      measurement: "m",
      tags: {},
      fields: { s: stringField('x\\\n"y"\\') },
      timestampMs: 1,
    });

    expect(line).toBe('m s="x\\\\\n\\"y\\"\\\\" 1000000');
    expect(parseLineProtocol(line)[0]?.fields.s).toEqual({ type: "string", value: 'x\\\n"y"\\' });
  });
});

describe("encodePoint never merges points", () => {
  /** What InfluxDB 1.x and 2.x store for a tag value (checked against Debian's influxd 1.6). */
  const storedByInflux1 = (value: string) =>
    value
      .replace(/[\r\n\t]/g, " ")
      .replace(/\\+$/, "")
      .replace(/\\+(?=[,= ])/g, "$&$&");

  it("writes random names of backslashes, separators, quotes and line breaks as one line each, read back as stored", () => {
    const alphabet = ["\\", "\\", ",", "=", " ", '"', "\n", "\t", "a", "#", "é"];
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const text = () =>
      Array.from({ length: 1 + Math.floor(random() * 8) }, () => alphabet[Math.floor(random() * 11)]).join(
        "",
      );
    const points = Array.from({ length: 2000 }, (_, n) => ({
      measurement: `m${text()}`,
      tags: { [`k${text()}`]: `v${text()}`, n: String(n) },
      fields: { [`f${text()}`]: stringField(text()), n: integerField(n) },
      timestampMs: n,
    }));

    const lines = splitLines(encodePoints(points));

    expect(lines).toHaveLength(points.length);
    lines.forEach((line, n) => {
      const point = points[n] as (typeof points)[number];
      const [key, value] = Object.entries(point.tags)[0] as [string, string];
      const facts = readLine(line);
      expect(facts?.tags.get("n")).toBe(String(n));
      expect(facts?.tags.get(storedByInflux1(key))).toBe(storedByInflux1(value));
    });
  });
});
