/**
 * A small QVD reader of the tests' own, written from the format description (not from our
 * encoder), to check the Qlik-made fixtures and the header layout of our files.
 */

export interface QvdFieldHeader {
  name: string;
  bitOffset: number;
  bitWidth: number;
  bias: number;
  symbols: number;
  offset: number;
  length: number;
}

export interface DecodedQvd {
  headerXml: string;
  tableName: string;
  fields: QvdFieldHeader[];
  recordByteSize: number;
  rows: (string | number | null)[][];
}

export function readQvdBytes(bytes: Uint8Array): DecodedQvd {
  const terminator = findTerminator(bytes);
  const headerXml = new TextDecoder().decode(bytes.subarray(0, terminator));
  const body = bytes.subarray(terminator + 3);
  const tag = (xml: string, name: string) => {
    const match = new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml);
    if (!match) throw new Error(`no <${name}> in QVD header`);
    return match[1] ?? "";
  };
  const fieldXml = [...headerXml.matchAll(/<QvdFieldHeader>([\s\S]*?)<\/QvdFieldHeader>/g)].map(
    (m) => m[1] ?? "",
  );
  const fields = fieldXml.map((xml) => ({
    name: tag(xml, "FieldName"),
    bitOffset: Number(tag(xml, "BitOffset")),
    bitWidth: Number(tag(xml, "BitWidth")),
    bias: Number(tag(xml, "Bias")),
    symbols: Number(tag(xml, "NoOfSymbols")),
    offset: Number(tag(xml, "Offset")),
    length: Number(tag(xml, "Length")),
  }));
  const tableXml = headerXml.slice(headerXml.lastIndexOf("</Fields>"));
  const recordByteSize = Number(tag(tableXml, "RecordByteSize"));
  const rowCount = Number(tag(tableXml, "NoOfRecords"));
  const indexOffset = Number(tag(tableXml, "Offset"));
  const symbolTables = fields.map((field) =>
    readSymbols(body.subarray(field.offset, field.offset + field.length)),
  );
  const rows: (string | number | null)[][] = [];
  for (let row = 0; row < rowCount; row += 1) {
    const record = body.subarray(
      indexOffset + row * recordByteSize,
      indexOffset + (row + 1) * recordByteSize,
    );
    rows.push(
      fields.map((field, i) => {
        let stored = 0;
        for (let bit = 0; bit < field.bitWidth; bit += 1) {
          const at = field.bitOffset + bit;
          if (((record[at >> 3] ?? 0) >> (at & 7)) & 1) stored += 2 ** bit;
        }
        const index = stored + field.bias;
        return index < 0 ? null : (symbolTables[i]?.[index] ?? null);
      }),
    );
  }
  return { headerXml, tableName: tag(headerXml, "TableName"), fields, recordByteSize, rows };
}

function findTerminator(bytes: Uint8Array): number {
  for (let i = 0; i + 2 < bytes.length; i += 1) {
    if (bytes[i] === 13 && bytes[i + 1] === 10 && bytes[i + 2] === 0) return i;
  }
  throw new Error("QVD header terminator \\r\\n\\0 not found");
}

/** Numbers come back as numbers, texts and duals as their text. */
function readSymbols(bytes: Uint8Array): (string | number)[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: (string | number)[] = [];
  let at = 0;
  const text = () => {
    const end = bytes.indexOf(0, at);
    const value = new TextDecoder().decode(bytes.subarray(at, end));
    at = end + 1;
    return value;
  };
  while (at < bytes.length) {
    const type = bytes[at];
    at += 1;
    if (type === 1) {
      out.push(view.getInt32(at, true));
      at += 4;
    } else if (type === 2) {
      out.push(view.getFloat64(at, true));
      at += 8;
    } else if (type === 4) {
      out.push(text());
    } else if (type === 5) {
      at += 4;
      out.push(text());
    } else if (type === 6) {
      at += 8;
      out.push(text());
    } else {
      throw new Error(`unknown QVD symbol type ${type} at ${at - 1}`);
    }
  }
  return out;
}

/** The sequence of element names in a header, to compare layouts. */
export function headerElementNames(headerXml: string): string[] {
  return [...headerXml.matchAll(/<([A-Za-z]+)>/g)].map((m) => m[1] ?? "");
}
