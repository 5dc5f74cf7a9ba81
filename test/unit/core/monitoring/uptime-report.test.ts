import { describe, expect, it } from "vitest";
import {
  formatUptime,
  memoryPoint,
  uptimeLogLine,
  uptimeMetricBatch,
} from "../../../../core/monitoring/uptime-report.ts";

const MB = 1024 * 1024;
const memory = { heapUsed: 10.5 * MB, heapTotal: 20 * MB, external: 1.234 * MB, rss: 80.126 * MB };

describe("uptime report", () => {
  it("formats the uptime log line as Butler SOS writes it", () => {
    const uptime = ((((31 + 2) * 24 + 3) * 60 + 4) * 60 + 5) * 1000;
    expect(uptimeLogLine(1234, uptime, memory)).toBe(
      "Iteration # 1,234, Uptime: 1 months, 3 days, 3 hours, 4 minutes, 5 seconds, Heap used 10.5 MB of total heap 20 MB. External (off-heap): 1.23 MB. Memory allocated to process: 80.13 MB.",
    );
  });

  it("never wraps months at a year", () => {
    expect(formatUptime(400 * 86_400_000)).toBe("13 months, 10 days, 0 hours, 0 minutes, 0 seconds");
  });

  it("makes the steward_memory_usage point in MB with the instance and version tags", () => {
    expect(memoryPoint(memory, "PROD", "15.0.0", 1000)).toEqual({
      measurement: "steward_memory_usage",
      tags: { instance: "PROD", version: "15.0.0" },
      fields: {
        heap_used: { kind: "float", value: 10.5 },
        heap_total: { kind: "float", value: 20 },
        external: { kind: "float", value: 1.23 },
        process_memory: { kind: "float", value: 80.13 },
      },
      timestampMs: 1000,
    });
  });

  it("makes the qs_service* metrics by switch, in bytes and ms", () => {
    const options = {
      memory: true,
      uptime: true,
      attributes: { serviceVersion: "15.0.0" },
      intervalMs: 900_000,
    };
    expect(uptimeMetricBatch(memory, 5000, 7, options)?.metrics.map((m) => m.name)).toEqual([
      "qs_serviceHeapUsed",
      "qs_serviceHeapTotal",
      "qs_serviceExternalMem",
      "qs_serviceProcessMem",
      "qs_serviceUptimeMillisec",
    ]);
    expect(uptimeMetricBatch(memory, 5000, 7, { ...options, memory: false })?.metrics).toEqual([
      { name: "qs_serviceUptimeMillisec", value: 5000 },
    ]);
    expect(uptimeMetricBatch(memory, 5000, 7, { ...options, memory: false, uptime: false })).toBeUndefined();
  });
});
