/**
 * Reads the Prometheus text exposition (format 0.0.4) back into metrics, so tests assert on
 * names, help, types, label values and numbers rather than on string fragments. Strict: a line
 * it does not understand throws, so a malformed exposition fails the test that reads it.
 */

export interface ScrapedSample {
  labels: Record<string, string>;
  value: number;
}

export interface ScrapedMetric {
  name: string;
  help: string;
  type: string;
  samples: ScrapedSample[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})? (\S+)$/;

export function parsePrometheusText(text: string): ScrapedMetric[] {
  const metrics = new Map<string, ScrapedMetric>();
  const metric = (name: string) => {
    let found = metrics.get(name);
    if (found === undefined) {
      found = { name, help: "", type: "untyped", samples: [] };
      metrics.set(name, found);
    }
    return found;
  };
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const comment = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (comment !== null) {
      const [, kind, name = "", rest = ""] = comment;
      if (kind === "HELP") metric(name).help = unescapeHelp(rest);
      else metric(name).type = rest;
      continue;
    }
    const sample = SAMPLE.exec(line);
    if (sample === null) throw new Error(`not an exposition line: ${JSON.stringify(line)}`);
    const [, name = "", labels, value = ""] = sample;
    metric(name).samples.push({
      labels: labels === undefined ? {} : parseLabels(labels),
      value: Number(value),
    });
  }
  return [...metrics.values()];
}

function parseLabels(block: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let i = 1;
  while (i < block.length - 1) {
    const eq = block.indexOf("=", i);
    const name = block.slice(i, eq);
    if (block[eq + 1] !== '"') throw new Error(`label ${name} has no quoted value in ${block}`);
    let value = "";
    let j = eq + 2;
    for (; block[j] !== '"'; j += 1) {
      if (j >= block.length) throw new Error(`unterminated label value in ${block}`);
      if (block[j] === "\\") {
        j += 1;
        value += block[j] === "n" ? "\n" : block[j];
      } else value += block[j];
    }
    labels[name] = value;
    i = block[j + 1] === "," ? j + 2 : j + 1;
  }
  return labels;
}

function unescapeHelp(text: string): string {
  return text.replace(/\\(n|\\)/g, (_, c: string) => (c === "n" ? "\n" : "\\"));
}
