/**
 * Child process of the UDP benchmark: Steward's log-event pipeline as the local runtime runs it
 * (startUdpEvents: socket, queue, processor, destinations), on a loopback port, with the engine source
 * on and categorisation rules as a real configuration has them.
 * Usage: node udp-server.mjs MODE UDP_PORT [INFLUX_PORT DATABASE]; MODE `noop`: no destination
 * is switched on (parse, categorise and count only); `influx`: log events to InfluxDB 1.x.
 * Prints `READY <port>`; answers the parent's "stats" message over IPC with the queue's counters,
 * its time-in-queue statistics, this process's CPU time and its memory at the highest RSS sampled
 * (udp-memory.ts; every sample to the file named by BENCH_UDP_MEMORY_LOG when set).
 */
import { createMemoryAppNameCache } from "../../core/adapters/local/memory-app-name-cache.ts";
import { createPromMetricsRegistry } from "../../core/adapters/prometheus/prom-metrics-registry.ts";
import { parseConfig } from "../../core/config/index.ts";
import { consoleSink } from "../../core/logging/console-sink.ts";
import { createLogger } from "../../core/logging/logger.ts";
import { systemClock } from "../../core/system-clock.ts";
import { startAgentConnections } from "../../local/agent/agent-connections.ts";
import { startUdpEvents } from "../../local/agent/udp-events.ts";
import { startMemorySampler } from "./udp-memory.ts";

const [mode = "noop", portText = "9996", influxPort = "8086", database = "steward_bench"] =
  process.argv.slice(2);
const toInflux = mode === "influx";

const parsed = parseConfig({
  Service: {
    logLevel: "info",
    timeseriesdbConfig: {
      enable: toInflux,
      version: 1,
      host: "127.0.0.1",
      port: Number(influxPort),
      v1Config: { dbName: database },
    },
    platformEvents: {
      timeseriesdb: { enable: toInflux, writeFrequency: 5000 },
      eventCount: { enable: true },
    },
    logEvents: {
      udpServerConfig: {
        serverHost: "127.0.0.1",
        portLogEvents: Number(portText),
        messageQueue: { maxConcurrent: 10, maxSize: 20000, backpressureThreshold: 90 },
      },
      source: { engine: { enable: true } },
      sendToTimeseriesdb: { enable: toInflux },
      categorise: {
        enable: true,
        rules: [
          {
            description: "Reload failures",
            logLevel: ["warn", "error"],
            action: "categorise",
            category: [{ name: "qs_log_category", value: "reload" }],
            filter: [{ type: "so", value: "reload failed" }],
          },
          {
            description: "Noise",
            logLevel: ["warn"],
            action: "drop",
            filter: [{ type: "sw", value: "Ignorable" }],
          },
        ],
      },
    },
  },
});
if (!parsed.ok) throw new Error(`bench config: ${JSON.stringify(parsed.problems)}`);

const logger = createLogger({ level: "warn", sinks: [consoleSink()] });
const metrics = createPromMetricsRegistry();
const connections = await startAgentConnections({
  config: parsed.config,
  logger,
  metrics,
  cwd: process.cwd(),
});
const udp = await startUdpEvents({
  config: parsed.config,
  logger,
  clock: systemClock,
  cwd: process.cwd(),
  metrics,
  appNames: createMemoryAppNameCache(),
  connections,
});
const pipeline = udp.logEvents;
if (pipeline === undefined) throw new Error("log-event pipeline did not start");
process.stdout.write(`READY ${pipeline.socket.port}\n`);
const memory = startMemorySampler({
  logPath: process.env.BENCH_UDP_MEMORY_LOG,
  extra: () => ({
    waiting: pipeline.queue.state().waiting,
    bufferedPoints: pipeline.destinations.stats().timeseriesdb?.buffered,
  }),
});

process.on("message", (message) => {
  if (message !== "stats") return;
  process.send?.({
    counters: pipeline.queue.counters(),
    timeInQueue: pipeline.queue.stats().timeInQueue,
    destinations: pipeline.destinations.stats(),
    cpuMs: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
    memoryAtPeak: memory.peak(),
  });
});
process.on("SIGTERM", () => {
  void udp
    .stop()
    .then(() => connections.stop())
    .then(() => process.exit(0));
});
