/**
 * Reads the Prometheus text exposition (format 0.0.4) back into metric families, so tests assert
 * on names, help, types, label values and numbers rather than on string fragments. Strict: a line
 * it does not understand throws, and so does what the format forbids even when each line looks
 * fine — an unknown type, a second HELP or TYPE, a TYPE after the family's first sample, a family
 * split in two, a label name given twice, a series given twice, an escape other than `\\`, `\"`
 * and `\n`, a value that is not a decimal float or one of Go's ParseFloat words (`NaN`, `+Inf`,
 * `-Inf` in any case — prom-client writes `Nan`; hexadecimal floats are refused), a histogram
 * bucket without `le`. A histogram's or summary's `_bucket`, `_sum` and `_count` samples belong to their
 * family and carry the suffix.
 */

export interface ScrapedSample {
  labels: Record<string, string>;
  value: number;
  /** `_bucket`, `_sum` or `_count` for those samples of a histogram or summary; absent otherwise. */
  suffix?: SampleSuffix;
  /** Milliseconds since the epoch, when the line gives one. */
  timestampMs?: number;
}

export interface ScrapedMetric {
  name: string;
  help: string;
  type: string;
  samples: ScrapedSample[];
}

export type SampleSuffix = "_bucket" | "_sum" | "_count";

const TYPES = new Set(["counter", "gauge", "histogram", "summary", "untyped"]);
const SUFFIXES: Readonly<Record<string, readonly SampleSuffix[]>> = {
  histogram: ["_bucket", "_sum", "_count"],
  summary: ["_sum", "_count"],
};
const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const METRIC_NAME_AT_START = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL_NAME_AT_START = /^[a-zA-Z_][a-zA-Z0-9_]*/;
const FLOAT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const TIMESTAMP = /^-?\d+$/;

export class ExpositionError extends Error {
  constructor(message: string, line: number, text: string) {
    super(`line ${line}: ${message}: ${JSON.stringify(text)}`);
    this.name = "ExpositionError";
  }
}

interface Family extends ScrapedMetric {
  hasHelp: boolean;
  hasType: boolean;
  seriesKeys: Set<string>;
}

export function parsePrometheusText(text: string): ScrapedMetric[] {
  if (text !== "" && !text.endsWith("\n"))
    throw new ExpositionError("the last line has no line feed", 0, text);
  const families = new Map<string, Family>();
  let current: Family | undefined;

  const familyNamed = (name: string, lineNo: number, line: string): Family => {
    if (current?.name === name) return current;
    if (families.has(name)) throw new ExpositionError(`metric family ${name} is split`, lineNo, line);
    current = {
      name,
      help: "",
      type: "untyped",
      samples: [],
      hasHelp: false,
      hasType: false,
      seriesKeys: new Set(),
    };
    families.set(name, current);
    return current;
  };

  const lines = text.split("\n");
  lines.forEach((line, index) => {
    const lineNo = index + 1;
    if (line.trim() === "") return;
    if (line.startsWith("#")) {
      const comment = /^#[ \t]+(HELP|TYPE)[ \t]+(\S+)(?:[ \t](.*))?$/.exec(line);
      if (comment === null) return; // a plain comment
      const [, kind, name = "", rest = ""] = comment;
      if (!METRIC_NAME.test(name)) throw new ExpositionError("invalid metric name", lineNo, line);
      const family = familyNamed(name, lineNo, line);
      if (kind === "HELP") {
        if (family.hasHelp) throw new ExpositionError(`second HELP for ${name}`, lineNo, line);
        family.help = unescapeHelp(rest, lineNo, line);
        family.hasHelp = true;
      } else {
        if (family.hasType) throw new ExpositionError(`second TYPE for ${name}`, lineNo, line);
        if (family.samples.length > 0)
          throw new ExpositionError(`TYPE after samples of ${name}`, lineNo, line);
        const type = rest.trim();
        if (!TYPES.has(type)) throw new ExpositionError(`unknown type ${type}`, lineNo, line);
        family.type = type;
        family.hasType = true;
      }
      return;
    }
    const sample = parseSampleLine(line, lineNo);
    const suffix = suffixWithin(current, sample.name);
    const family = suffix === undefined ? familyNamed(sample.name, lineNo, line) : (current as Family);
    if (suffix === "_bucket" && !("le" in sample.labels)) {
      throw new ExpositionError("histogram bucket without le", lineNo, line);
    }
    if (family.type === "histogram" && suffix === undefined) {
      throw new ExpositionError(
        `histogram ${family.name} sample without _bucket, _sum or _count`,
        lineNo,
        line,
      );
    }
    if (family.type === "summary" && suffix === undefined && !("quantile" in sample.labels)) {
      throw new ExpositionError(`summary ${family.name} sample without quantile`, lineNo, line);
    }
    const seriesKey = JSON.stringify([suffix ?? "", Object.entries(sample.labels).sort()]);
    if (family.seriesKeys.has(seriesKey)) throw new ExpositionError("series given twice", lineNo, line);
    family.seriesKeys.add(seriesKey);
    family.samples.push({
      labels: sample.labels,
      value: sample.value,
      ...(suffix === undefined ? {} : { suffix }),
      ...(sample.timestampMs === undefined ? {} : { timestampMs: sample.timestampMs }),
    });
  });

  return [...families.values()].map(({ name, help, type, samples }) => ({ name, help, type, samples }));
}

/** The suffix that puts `name` in the current histogram or summary family, if it does. */
function suffixWithin(family: Family | undefined, name: string): SampleSuffix | undefined {
  if (family === undefined) return undefined;
  return (SUFFIXES[family.type] ?? []).find((suffix) => name === family.name + suffix);
}

interface SampleLine {
  name: string;
  labels: Record<string, string>;
  value: number;
  timestampMs: number | undefined;
}

function parseSampleLine(line: string, lineNo: number): SampleLine {
  const fail = (message: string): never => {
    throw new ExpositionError(message, lineNo, line);
  };
  const name = METRIC_NAME_AT_START.exec(line)?.[0] ?? fail("not a sample line");
  let rest = line.slice(name.length);
  let labels: Record<string, string> = {};
  if (rest.startsWith("{")) {
    const parsed = parseLabels(rest, fail);
    labels = parsed.labels;
    rest = rest.slice(parsed.length);
  }
  if (!/^[ \t]/.test(rest)) fail("no whitespace before the value");
  const [valueText = "", timestampText, ...extra] = rest.trim().split(/[ \t]+/);
  if (extra.length > 0) fail("text after the timestamp");
  if (timestampText !== undefined && !TIMESTAMP.test(timestampText)) fail("invalid timestamp");
  return {
    name,
    labels,
    value: parseValue(valueText) ?? fail("invalid value"),
    timestampMs: timestampText === undefined ? undefined : Number(timestampText),
  };
}

/** Parses `{a="x",b="y"}` (a trailing comma allowed) at the start of `text`. */
function parseLabels(
  text: string,
  fail: (message: string) => never,
): { labels: Record<string, string>; length: number } {
  const labels: Record<string, string> = {};
  let i = 1;
  for (;;) {
    if (text[i] === "}") return { labels, length: i + 1 };
    const name = LABEL_NAME_AT_START.exec(text.slice(i))?.[0] ?? fail("invalid label name");
    if (Object.hasOwn(labels, name)) fail(`label ${name} given twice`);
    i += name.length;
    if (text[i] !== "=" || text[i + 1] !== '"') fail(`label ${name} has no quoted value`);
    i += 2;
    let value = "";
    for (;;) {
      const char = text[i];
      if (char === undefined) fail("unterminated label value");
      if (char === '"') break;
      if (char === "\\") {
        const escaped = text[i + 1];
        if (escaped === "\\" || escaped === '"') value += escaped;
        else if (escaped === "n") value += "\n";
        else fail("invalid escape in a label value");
        i += 2;
      } else {
        value += char;
        i += 1;
      }
    }
    labels[name] = value;
    i += 1; // the closing quote
    if (text[i] === ",") i += 1;
    else if (text[i] !== "}") fail("expected , or } after a label");
  }
}

function parseValue(text: string): number | undefined {
  if (/^nan$/i.test(text)) return Number.NaN;
  const infinity = /^([+-]?)inf(?:inity)?$/i.exec(text);
  if (infinity !== null) return infinity[1] === "-" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  return FLOAT.test(text) ? Number(text) : undefined;
}

function unescapeHelp(text: string, lineNo: number, line: string): string {
  return text.replace(/\\(.?)/g, (_, char: string) => {
    if (char === "n") return "\n";
    if (char === "\\") return "\\";
    throw new ExpositionError("invalid escape in HELP", lineNo, line);
  });
}

/** The value of the one sample of `name` whose labels are exactly `labels`; undefined if none. */
export function sampleValue(
  metrics: readonly ScrapedMetric[],
  name: string,
  labels: Readonly<Record<string, string>> = {},
): number | undefined {
  const wanted = JSON.stringify(Object.entries(labels).sort());
  const matches = (metrics.find((metric) => metric.name === name)?.samples ?? []).filter(
    (sample) =>
      sample.suffix === undefined && JSON.stringify(Object.entries(sample.labels).sort()) === wanted,
  );
  return matches[0]?.value;
}
