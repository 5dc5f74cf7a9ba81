/**
 * A system whose kernel does not report UDP drops: both listeners run as usual, the scrape has no
 * `dropped_kernel` outcome (no label without a value), and `GET /status` says, per listener, that
 * the count is not available and why — never 0. Simulated twice: on Linux with tables that do not
 * exist (a reason that may pass), and as on Windows (`platform: "win32"`), where no such count
 * exists at all: the status says so (`notOnThisPlatform`) and the metric's help says "not available
 * on this platform".
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createMemoryAppNameCache } from "../../../../core/adapters/local/memory-app-name-cache.ts";
import { createPromMetricsRegistry } from "../../../../core/adapters/prometheus/prom-metrics-registry.ts";
import { configView } from "../../../../core/config/config-view.ts";
import { parseConfig } from "../../../../core/config/index.ts";
import { createStatusBoard } from "../../../../core/monitoring/status-board.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { startAgentConnections } from "../../../../local/agent/agent-connections.ts";
import { createProcNetUdpReader, type KernelDropReader } from "../../../../local/agent/kernel-drop-reader.ts";
import { startUdpEvents } from "../../../../local/agent/udp-events.ts";
import { udpListenerStatus } from "../../../../local/agent/udp-status.ts";
import { createConfigUiApp } from "../../../../local/config-ui/app.ts";
import { until } from "../../../helpers/eventually.ts";
import { freePort } from "../../../helpers/free-port.ts";
import { scratchDirectory } from "../../../helpers/per-test-environment.ts";
import { parsePrometheusText } from "../../../helpers/prometheus-text.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { sendDatagrams } from "../../../helpers/send-datagrams.ts";

/**
 * Starts both UDP listeners with `reader` (made from the scratch directory), sends each one
 * datagram, and answers the scrape's text, the `/status` document and the log.
 */
async function runListeners(reader: (dir: string) => KernelDropReader) {
  const dir = scratchDirectory("steward-no-proc-");
  const ports = { user: await freePort(), log: await freePort() };
  const parsed = parseConfig({
    Service: {
      userEvents: {
        enable: true,
        udpServerConfig: { serverHost: "127.0.0.1", portUserActivityEvents: ports.user },
      },
      logEvents: {
        udpServerConfig: { serverHost: "127.0.0.1", portLogEvents: ports.log },
        source: { engine: { enable: true } },
      },
    },
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const logger = recordingLogger();
  const metrics = createPromMetricsRegistry();
  const connections = await startAgentConnections({ config: parsed.config, logger, metrics, cwd: dir });
  const udp = await startUdpEvents({
    config: parsed.config,
    logger,
    clock: systemClock,
    cwd: dir,
    metrics,
    appNames: createMemoryAppNameCache(),
    connections,
    kernelDrops: reader(dir),
  });
  const status = createStatusBoard({ version: "15.0.0", clock: systemClock });
  for (const view of [udp.userEvents, udp.logEvents]) {
    if (view !== undefined) status.set("udpQueues", view.queue.name, () => udpListenerStatus(view));
  }
  const app = createConfigUiApp({
    view: configView({ Service: {} }, { obfuscate: true }),
    obfuscated: true,
    status,
    clock: systemClock,
    logger,
    clientIp: () => "127.0.0.1",
  });
  try {
    await sendDatagrams(ports.user, ["not an event"]);
    await sendDatagrams(ports.log, ["not an event"]);
    await until(
      () => udp.userEvents?.queue.counters().received === 1 && udp.logEvents?.queue.counters().received === 1,
    );
    const text = await metrics.metrics();
    const doc = (await (await app.request("/status")).json()) as {
      udpQueues: Record<string, { counters: { received: number }; kernelDrops: unknown }>;
    };
    return { dir, text, scraped: parsePrometheusText(text), doc, logger };
  } finally {
    await udp.stop();
    await connections.stop();
  }
}

describe("UDP listeners where the system reports no kernel drops", () => {
  it("leave dropped_kernel off /metrics and say not available, with the reason, in /status", async () => {
    // Act
    const { dir, scraped, doc, logger } = await runListeners((scratch) =>
      createProcNetUdpReader({ files: { ipv4: join(scratch, "udp"), ipv6: join(scratch, "udp6") } }),
    );

    // Assess
    const samples = scraped.find((metric) => metric.name === "steward_udp_messages_total")?.samples ?? [];
    expect(samples.filter((sample) => sample.labels.outcome === "received")).toHaveLength(2);
    expect(samples.filter((sample) => sample.labels.outcome === "dropped_kernel")).toEqual([]);
    for (const name of ["user_events", "log_events"]) {
      expect(doc.udpQueues[name]?.counters.received).toBe(1);
      expect(doc.udpQueues[name]?.kernelDrops).toEqual({
        dropped: null,
        reason: `cannot read ${join(dir, "udp")} (ENOENT)`,
      });
    }
    expect(logger.at("info").map((entry) => entry.message)).toContain(
      "The operating system does not report the datagrams it drops for user_events",
    );
  });

  it("say 'not available on this platform' in the metric's help and in /status on Windows", async () => {
    // Act
    const { text, scraped, doc } = await runListeners(() => createProcNetUdpReader({ platform: "win32" }));

    // Assess
    const help = text.split("\n").find((line) => line.startsWith("# HELP steward_udp_messages_total "));
    expect(help).toContain("dropped_kernel: not available on this platform");
    expect(help).not.toContain("where it reports them");
    const samples = scraped.find((metric) => metric.name === "steward_udp_messages_total")?.samples ?? [];
    expect(samples.filter((sample) => sample.labels.outcome === "received")).toHaveLength(2);
    expect(samples.filter((sample) => sample.labels.outcome === "dropped_kernel")).toEqual([]);
    for (const name of ["user_events", "log_events"]) {
      expect(doc.udpQueues[name]?.kernelDrops).toEqual({
        dropped: null,
        reason: "the operating system (win32) does not report drops per socket",
        notOnThisPlatform: true,
      });
    }
  });
});
