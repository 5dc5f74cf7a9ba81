import { describe, expect, it } from "vitest";
import {
  decodeRecords,
  encodeRecord,
  RECORD_HEADER_BYTES,
} from "../../../../../../core/adapters/local/durable-queue/record-format.ts";

const log = (...payloads: string[]) => Buffer.concat(payloads.map(encodeRecord));

describe("durable log record format", () => {
  it("decodes what it encodes, with each record's offsets, multi-byte text included", () => {
    const bytes = log('{"a":1}', '{"b":"ä ✓"}');

    const decoded = decodeRecords(bytes);

    expect(decoded.stop).toBe("end");
    expect(decoded.records.map((record) => record.payload)).toEqual(['{"a":1}', '{"b":"ä ✓"}']);
    expect(decoded.records[1]?.offset).toBe(decoded.records[0]?.end);
    expect(decoded.validEnd).toBe(bytes.length);
  });

  it("stops at a record cut short (a torn tail) and says where the good part ends", () => {
    const whole = log('{"a":1}');
    const torn = Buffer.concat([whole, encodeRecord('{"b":2}').subarray(0, RECORD_HEADER_BYTES + 3)]);

    const decoded = decodeRecords(torn);

    expect(decoded.stop).toBe("partial");
    expect(decoded.records).toHaveLength(1);
    expect(decoded.validEnd).toBe(whole.length);
  });

  it("detects a damaged payload by its checksum", () => {
    const bytes = log('{"a":1}', '{"b":2}');
    const second = encodeRecord('{"a":1}').length;
    bytes.writeUInt8(
      (bytes.at(second + RECORD_HEADER_BYTES + 2) as number) ^ 0xff,
      second + RECORD_HEADER_BYTES + 2,
    );

    const decoded = decodeRecords(bytes);

    expect(decoded.stop).toBe("corrupt");
    expect(decoded.records.map((record) => record.payload)).toEqual(['{"a":1}']);
    expect(decoded.validEnd).toBe(second);
  });

  it("treats zeroed bytes (a length of 0) as damage, not as records", () => {
    const decoded = decodeRecords(Buffer.concat([log('{"a":1}'), Buffer.alloc(64)]));

    expect(decoded.stop).toBe("corrupt");
    expect(decoded.records).toHaveLength(1);
  });

  it("decodes at most maxRecords", () => {
    const decoded = decodeRecords(log("1", "2", "3"), 2);

    expect(decoded.records.map((record) => record.payload)).toEqual(["1", "2"]);
    expect(decoded.validEnd).toBe(decoded.records[1]?.end);
  });
});
