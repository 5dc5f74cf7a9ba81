/**
 * A MetricsRegistry for the cloud functions, which have no scrape endpoint: `flush` writes the
 * declared metrics as CloudWatch embedded metric format (EMF) lines to standard output, which
 * CloudWatch Logs turns into metrics of the namespace `Steward` without an API call or a grant.
 * One line per sample, its labels as dimensions; counters as what they grew by since the last
 * flush (a function instance counts from its cold start, CloudWatch adds the invocations up;
 * samples that did not grow are left out), gauges as their value, also published without
 * dimensions so that one alarm covers every tenant (infra/alarms.ts). A function flushes once per
 * invocation, after its work; the label values are configured names and fixed words only, as on
 * `/metrics`, so the series stay few.
 */
import type { MetricSample, MetricSpec, MetricsRegistry } from "../../ports.ts";

export const EMF_NAMESPACE = "Steward";

export interface EmbeddedMetricsRegistry extends MetricsRegistry {
  /** Writes every counter's growth and every gauge's value since the last flush. */
  flush(): void;
}

interface Declared {
  readonly type: "counter" | "gauge";
  readonly spec: MetricSpec<string>;
}

const sampleKey = (labels: Readonly<Record<string, string>>) => JSON.stringify(Object.entries(labels).sort());

export function createEmbeddedMetricsRegistry(
  write: (line: string) => void = (line) => void process.stdout.write(line),
  now: () => number = Date.now,
): EmbeddedMetricsRegistry {
  const declared = new Map<string, Declared>();
  /** Each counter sample's value at the last flush, by metric and labels. */
  const flushed = new Map<string, number>();
  const declare = (type: Declared["type"], spec: MetricSpec<string>) => {
    if (declared.has(spec.name)) throw new Error(`metric ${spec.name} is already declared`);
    declared.set(spec.name, { type, spec });
  };

  function line(name: string, type: Declared["type"], sample: MetricSample<string>, value: number): string {
    const dimensions = Object.keys(sample.labels);
    const document = {
      _aws: {
        Timestamp: now(),
        CloudWatchMetrics: [
          {
            Namespace: EMF_NAMESPACE,
            Dimensions: type === "gauge" ? [dimensions, []] : [dimensions],
            Metrics: [{ Name: name, Unit: type === "counter" ? "Count" : "None" }],
          },
        ],
      },
      ...sample.labels,
      [name]: value,
    };
    return `${JSON.stringify(document)}\n`;
  }

  return {
    counter: (spec) => declare("counter", spec as MetricSpec<string>),
    gauge: (spec) => declare("gauge", spec as MetricSpec<string>),
    flush() {
      for (const { type, spec } of declared.values()) {
        for (const sample of spec.collect()) {
          if (type === "gauge") {
            write(line(spec.name, type, sample, sample.value));
            continue;
          }
          const key = `${spec.name} ${sampleKey(sample.labels)}`;
          const grown = sample.value - (flushed.get(key) ?? 0);
          flushed.set(key, sample.value);
          if (grown > 0) write(line(spec.name, type, sample, grown));
        }
      }
    },
  };
}
