/**
 * Datagrams the kernel drops, end to end through `steward start`: the user-event listener with the
 * smallest receive buffer Steward accepts (64 KiB), the scrape endpoint and the status page. The
 * process is paused (SIGSTOP) while a burst is sent, as a process too busy to read would be, so
 * that the burst overflows the socket's buffer; then it goes on (SIGCONT). Steward's
 * `dropped_kernel` on /metrics and in /status must equal what /proc/net/udp says for the port, and
 * every datagram sent is either received by Steward or counted as dropped by the kernel. The
 * log-event queue's metrics in InfluxDB 1.x (Debian's influxd) must add up to the same.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { until } from "../../helpers/eventually.ts";
import { freePort } from "../../helpers/free-port.ts";
import { stewardStatus } from "../../helpers/json-destination-steward.ts";
import {
  kernelDropsOn127,
  kernelQueuedBytesOn127,
  skipWithoutProcNetUdp,
} from "../../helpers/kernel-udp-table.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { parsePrometheusText, sampleValue } from "../../helpers/prometheus-text.ts";
import { floodDatagrams } from "../../helpers/send-datagrams.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";
import { influxdForSuite } from "../../helpers/suite-influxd.ts";

const skip = skipWithoutProcNetUdp();
const { skip: skipInflux, influxd } = influxdForSuite();

const BURST = 3000;
const WARN_LINE = /The operating system dropped (\d+) datagrams for user_events since the last report/g;

interface Ports {
  udp: number;
  scrape: number;
  ui: number;
}

function configDirectory(ports: Ports): string {
  const dir = scratchDirectory("steward-kernel-drops-");
  writeFileSync(
    join(dir, "steward.yaml"),
    `Service:
  restServer:
    enable: false
  auditEvents:
    enable: false
  scrapeEndpoint:
    enable: true
    port: ${ports.scrape}
  configVisualisation:
    enable: true
    port: ${ports.ui}
  userEvents:
    enable: true
    udpServerConfig:
      serverHost: 127.0.0.1
      portUserActivityEvents: ${ports.udp}
      receiveBufferBytes: 65536
`,
  );
  return dir;
}

interface Seen {
  metrics: { received: number | undefined; kernel: number | undefined };
  status: { received: number; kernel: { dropped: number | null; reason?: string } };
  proc: number;
}

async function look(ports: Ports): Promise<Seen> {
  const text = await (await fetch(`http://127.0.0.1:${ports.scrape}/metrics`)).text();
  const scraped = parsePrometheusText(text);
  const udp = (outcome: string) =>
    sampleValue(scraped, "steward_udp_messages_total", { queue: "user_events", outcome });
  const doc = await stewardStatus(ports.ui);
  const queue = (doc.udpQueues as Record<string, { counters: { received: number }; kernelDrops: never }>)
    .user_events;
  return {
    metrics: { received: udp("received"), kernel: udp("dropped_kernel") },
    status: { received: queue?.counters.received ?? -1, kernel: queue?.kernelDrops ?? { dropped: null } },
    proc: kernelDropsOn127(ports.udp),
  };
}

/** Looks until Steward has taken in what the kernel kept and both accounts agree. */
async function settled(ports: Ports, sent: number): Promise<Seen> {
  let seen = await look(ports);
  await until(
    async () => {
      seen = await look(ports);
      return (
        seen.metrics.kernel === seen.proc &&
        seen.status.kernel.dropped === seen.proc &&
        (seen.metrics.received ?? 0) + seen.proc === sent
      );
    },
    15_000,
    100,
  );
  return seen;
}

describe.skipIf(skip)("datagrams the kernel drops, through `steward start`", () => {
  it("counts them on /metrics and /status as /proc/net/udp does, and warns once a minute with the number", async () => {
    // Prepare
    const ports = { udp: await freePort(), scrape: await freePort(), ui: await freePort() };
    const proc = await startStewardIn(configDirectory(ports));
    const before = await look(ports);

    // Act: two bursts while the process cannot read, well within one minute.
    proc.child.kill("SIGSTOP");
    await floodDatagrams(ports.udp, BURST);
    proc.child.kill("SIGCONT");
    const first = await settled(ports, BURST);
    proc.child.kill("SIGSTOP");
    await floodDatagrams(ports.udp, BURST);
    proc.child.kill("SIGCONT");
    const second = await settled(ports, 2 * BURST);
    const warnedWhileRunning = [...proc.output().matchAll(WARN_LINE)].map((match) => Number(match[1]));
    proc.child.kill("SIGTERM");
    const { code } = await proc.exited();
    const warnedInAll = [...proc.output().matchAll(WARN_LINE)].map((match) => Number(match[1]));

    // Assess
    expect(before.metrics.kernel).toBe(0);
    expect(before.status.kernel).toEqual({ dropped: 0 });
    expect(first.proc).toBeGreaterThan(BURST / 2);
    expect(first.metrics.kernel).toBe(first.proc);
    expect(first.status.kernel).toEqual({ dropped: first.proc });
    expect(second.proc).toBeGreaterThan(first.proc);
    expect(second.metrics.kernel).toBe(second.proc);
    expect(second.status.kernel).toEqual({ dropped: second.proc });
    expect(second.status.received + second.proc).toBe(2 * BURST);
    // The first growth at once; the second is held back by the minute, then reported on stop.
    expect(warnedWhileRunning).toEqual([first.proc]);
    expect(warnedInAll).toEqual([first.proc, second.proc - first.proc]);
    expect(proc.output()).toContain("raise udpServerConfig.receiveBufferBytes");
    expect(code).toBe(0);
  }, 60_000);
});

describe.skipIf(skip || skipInflux)(
  "datagrams the kernel drops, in the queue metrics in InfluxDB 1.x",
  () => {
    it("writes messages_dropped_kernel to log_events_queue, adding up to /proc/net/udp", async () => {
      // Prepare
      const ports = { udp: await freePort(), scrape: await freePort(), ui: await freePort() };
      const dir = scratchDirectory("steward-kernel-drops-influx-");
      writeFileSync(
        join(dir, "steward.yaml"),
        `Service:
  restServer:
    enable: false
  auditEvents:
    enable: false
  timeseriesdbConfig:
    enable: true
    version: 1
    host: 127.0.0.1
    port: ${influxd.port}
    v1Config:
      dbName: kernel_drops
  logEvents:
    udpServerConfig:
      serverHost: 127.0.0.1
      portLogEvents: ${ports.udp}
      receiveBufferBytes: 65536
      queueMetrics:
        timeseriesdb:
          enable: true
          writeFrequency: 500
    source:
      engine:
        enable: true
`,
      );
      // Made here: Steward creates its database only when it writes events, and this one writes
      // queue metrics alone.
      await influxd.query('CREATE DATABASE kernel_drops WITH DURATION 10d REPLICATION 1 NAME "10d"');
      const proc = await startStewardIn(dir);
      // Act
      proc.child.kill("SIGSTOP");
      await floodDatagrams(ports.udp, BURST);
      proc.child.kill("SIGCONT");
      const dropped = kernelDropsOn127(ports.udp);
      // What the kernel kept is Steward's once read; what a closing socket still holds is lost.
      await until(() => kernelQueuedBytesOn127(ports.udp) === 0, 10_000);
      proc.child.kill("SIGTERM");
      const { code } = await proc.exited();
      const answer = await influxd.query(
        'SELECT SUM("messages_dropped_kernel") AS kernel, SUM("messages_received") AS received, ' +
          'COUNT("messages_dropped_kernel") AS points FROM "log_events_queue"',
        "kernel_drops",
      );

      // Assess
      expect(code).toBe(0);
      expect(dropped).toBeGreaterThan(BURST / 2);
      const [, kernel, received, points] = answer.results[0]?.series?.[0]?.values[0] ?? [];
      expect(kernel).toBe(dropped);
      expect(received).toBe(BURST - dropped);
      expect(points).toBeGreaterThanOrEqual(1);
    }, 60_000);
  },
);
