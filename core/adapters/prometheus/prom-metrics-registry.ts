/**
 * The MetricsRegistry of the scrape endpoint: the metrics the agent's parts declare, plus — when
 * asked — `prom-client`'s process and Node.js runtime metrics. Each instance owns its own
 * prom-client `Registry`, never the global one, so two instances (two tests, two wirings) cannot
 * collide on a metric name.
 *
 * A declared metric reads its values from the spec's `collect` only when the endpoint is scraped:
 * the parts that count pay nothing per event, and the exposition shows exactly the samples of
 * that scrape (a label set no longer reported disappears). Declared metrics are rendered here,
 * straight from the collected samples into the text format (version 0.0.4); going through
 * prom-client's reset/set/format path cost about 10 ms per scrape with 200 servers' health gauges.
 * prom-client renders only its own default metrics.
 *
 * A metric whose spec has `onChange` (the polled servers' gauges, which change once per round) is
 * rendered when its owner says it changed, not at every scrape: 200 servers' 4,200 series cost
 * 3–6 ms to render and about 1 MB of garbage, once per round instead of once per scrape. The
 * rendering runs one metric per event-loop turn after the change, so it never holds the loop for
 * long; a scrape that comes before all of them are done renders the rest itself. Either way the
 * text is what `collect` returns at that moment, as without the cache. Such a metric is kept as
 * UTF-8 bytes, so that a scrape sends them as they are: `chunks()` gives the exposition as a list
 * of byte chunks, the kept ones among them, without joining 490 KB into one string and encoding
 * it again at every scrape.
 *
 * `chunks()` (for the `GET /metrics` handler) and `metrics()` (the same as one string) collect the
 * exposition; `contentType` is its media type. A `collect` that throws makes both reject: the
 * handler answers 500 rather than publishing a partial picture.
 */
import { collectDefaultMetrics, Registry } from "prom-client";
import type { MetricSpec, MetricsRegistry } from "../../ports.ts";

export interface PromMetricsRegistryOptions {
  /** Adds prom-client's process and Node.js runtime metrics (CPU, memory, event loop, GC). */
  defaultMetrics?: boolean;
}

export interface PromMetricsRegistry extends MetricsRegistry {
  /** The text exposition of every declared metric, collected now. */
  metrics(): Promise<string>;
  /** The same exposition as UTF-8 chunks, in order (metrics rendered once per change as kept). */
  chunks(): Promise<Uint8Array[]>;
  /** `text/plain; version=0.0.4; charset=utf-8`, the Content-Type of the `/metrics` answer. */
  readonly contentType: string;
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

interface Declared {
  readonly type: "counter" | "gauge";
  readonly spec: MetricSpec<string>;
  /** `# HELP` and `# TYPE` lines, rendered once. */
  readonly header: string;
  /** For a spec with `onChange`: its text as of the last change, undefined until rendered. */
  rendered: Buffer | undefined;
}

export function createPromMetricsRegistry(options: PromMetricsRegistryOptions = {}): PromMetricsRegistry {
  const defaults = new Registry();
  if (options.defaultMetrics === true) collectDefaultMetrics({ register: defaults });
  const declared = new Map<string, Declared>();
  const renderAhead = createRenderAhead();

  function declare(type: Declared["type"], spec: MetricSpec<string>): void {
    if (!METRIC_NAME.test(spec.name)) throw new Error(`invalid metric name ${JSON.stringify(spec.name)}`);
    for (const label of spec.labelNames) {
      if (!LABEL_NAME.test(label) || label.startsWith("__")) {
        throw new Error(`invalid label name ${JSON.stringify(label)} of metric ${spec.name}`);
      }
    }
    if (declared.has(spec.name) || defaults.getSingleMetric(spec.name) !== undefined) {
      throw new Error(`A metric with the name ${spec.name} has already been registered.`);
    }
    const header = `# HELP ${spec.name} ${escapeHelp(spec.help)}\n# TYPE ${spec.name} ${type}\n`;
    const entry: Declared = { type, spec, header, rendered: undefined };
    declared.set(spec.name, entry);
    spec.onChange?.(() => {
      entry.rendered = undefined;
      renderAhead.add(entry);
    });
  }

  async function chunks(): Promise<Uint8Array[]> {
    const out: Uint8Array[] = [];
    // Metrics rendered at every scrape are joined into one chunk between two kept ones.
    let text = "";
    for (const entry of declared.values()) {
      if (entry.spec.onChange === undefined) {
        text += render(entry);
        continue;
      }
      if (text !== "") out.push(Buffer.from(text));
      text = "";
      out.push(kept(entry));
    }
    if (text !== "") out.push(Buffer.from(text));
    if (options.defaultMetrics !== true) return out;
    const runtime = await defaults.metrics();
    if (runtime === "") return out;
    return [Buffer.from(out.length > 0 ? `${runtime}\n` : runtime), ...out];
  }

  return {
    counter: (spec) => declare("counter", spec),
    gauge: (spec) => declare("gauge", spec),
    chunks,
    metrics: async () => Buffer.concat(await chunks()).toString("utf8"),
    contentType: defaults.contentType,
  };
}

/** A kept metric's bytes: rendered at its last change, or now when not yet. */
function kept(entry: Declared): Buffer {
  entry.rendered ??= Buffer.from(render(entry));
  return entry.rendered;
}

/**
 * Renders changed metrics ahead of the next scrape, one per event-loop turn (`setImmediate`). A
 * collect that throws leaves its metric unrendered: the next scrape renders it and fails.
 */
function createRenderAhead(): { add(entry: Declared): void } {
  const queue = new Set<Declared>();
  let scheduled = false;
  function next(): void {
    scheduled = false;
    const [entry] = queue;
    if (entry === undefined) return;
    queue.delete(entry);
    try {
      kept(entry);
    } catch {
      // Reported by the scrape that renders it.
    }
    schedule();
  }
  function schedule(): void {
    if (scheduled || queue.size === 0) return;
    scheduled = true;
    setImmediate(next).unref();
  }
  return {
    add(entry) {
      queue.add(entry);
      schedule();
    },
  };
}

/** One metric's HELP, TYPE and sample lines, collected now, as one flat string. */
function render({ spec, header }: Declared): string {
  const lines = [header];
  for (const sample of spec.collect()) {
    let labels = "";
    for (const name of spec.labelNames) {
      const value = (sample.labels as Readonly<Record<string, string>>)[name];
      if (value === undefined) continue;
      labels += `${labels === "" ? "" : ","}${name}="${escapeLabelValue(value)}"`;
    }
    lines.push(`${spec.name}${labels === "" ? "" : `{${labels}}`} ${formatValue(sample.value)}\n`);
  }
  return lines.join("");
}

function escapeHelp(help: string): string {
  return help.replaceAll("\\", "\\\\").replaceAll("\n", "\\n");
}

const NEEDS_ESCAPE = /[\\"\n]/;

function escapeLabelValue(value: string): string {
  if (!NEEDS_ESCAPE.test(value)) return value;
  return value.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replaceAll("\n", "\\n");
}

function formatValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Number.POSITIVE_INFINITY) return "+Inf";
  if (value === Number.NEGATIVE_INFINITY) return "-Inf";
  return String(value);
}
