/**
 * Datagrams the kernel drops with both UDP listeners on, as the platform-events page's minimal
 * file has them, through `steward start`: each listener must read its own socket's row of
 * /proc/net/udp, the one bound second included (its row is not in a table read before its bind).
 * A burst to the log-event listener while the process is paused must then show on /metrics and
 * /status as /proc/net/udp counts it, so the `dropped_kernel` leg of the alert rule can fire.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { eventually } from "../../helpers/eventually.ts";
import { freePort } from "../../helpers/free-port.ts";
import { stewardStatus } from "../../helpers/json-destination-steward.ts";
import { kernelDropsOn127, skipWithoutProcNetUdp } from "../../helpers/kernel-udp-table.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { parsePrometheusText, sampleValue } from "../../helpers/prometheus-text.ts";
import { floodDatagrams } from "../../helpers/send-datagrams.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";

const skip = skipWithoutProcNetUdp();

const BURST = 3000;
const QUEUES = ["user_events", "log_events"] as const;

interface Ports {
  user: number;
  log: number;
  scrape: number;
  ui: number;
}

function configDirectory(ports: Ports): string {
  const dir = scratchDirectory("steward-kernel-drops-both-");
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
      portUserActivityEvents: ${ports.user}
  logEvents:
    udpServerConfig:
      serverHost: 127.0.0.1
      portLogEvents: ${ports.log}
      receiveBufferBytes: 65536
    source:
      engine:
        enable: true
`,
  );
  return dir;
}

type KernelDrops = { dropped: number | null; reason?: string };

/** Per queue: `dropped_kernel` on /metrics (undefined: no series), `kernelDrops` in /status. */
async function look(ports: Ports) {
  const scraped = parsePrometheusText(await (await fetch(`http://127.0.0.1:${ports.scrape}/metrics`)).text());
  const doc = await stewardStatus(ports.ui);
  const status = doc.udpQueues as Record<
    string,
    { counters: { received: number }; kernelDrops: KernelDrops }
  >;
  const of = (queue: (typeof QUEUES)[number]) => ({
    metric: sampleValue(scraped, "steward_udp_messages_total", { queue, outcome: "dropped_kernel" }),
    status: status[queue]?.kernelDrops,
    received: status[queue]?.counters.received ?? -1,
  });
  return { user_events: of("user_events"), log_events: of("log_events") };
}

describe.skipIf(skip)("datagrams the kernel drops, with both UDP listeners on", () => {
  it("reports each listener's drops, the log-event listener's too, as /proc/net/udp counts them", async () => {
    // Prepare
    const ports = {
      user: await freePort(),
      log: await freePort(),
      scrape: await freePort(),
      ui: await freePort(),
    };
    const proc = await startStewardIn(configDirectory(ports));
    const before = await look(ports);

    // Act: a burst to the log-event listener while the process cannot read.
    proc.child.kill("SIGSTOP");
    await floodDatagrams(ports.log, BURST);
    proc.child.kill("SIGCONT");
    let after = await look(ports);
    // Until Steward has read what the kernel kept (with the bug, never: no count for log events).
    await eventually(
      async () => {
        after = await look(ports);
        const kernel = kernelDropsOn127(ports.log);
        return after.log_events.metric === kernel && after.log_events.received + kernel === BURST;
      },
      15_000,
      100,
    );
    const dropped = kernelDropsOn127(ports.log);
    proc.child.kill("SIGTERM");
    const { code } = await proc.exited();

    // Assess
    expect(proc.output()).not.toMatch(/does not report the datagrams it drops/);
    for (const queue of QUEUES) {
      expect(before[queue].status, queue).toEqual({ dropped: 0 });
      expect(before[queue].metric, queue).toBe(0);
    }
    expect(dropped).toBeGreaterThan(BURST / 2);
    expect(after.log_events.metric).toBe(dropped);
    expect(after.log_events.status).toEqual({ dropped });
    expect(after.user_events.status).toEqual({ dropped: 0 });
    expect(proc.output()).toMatch(
      new RegExp(`The operating system dropped ${dropped} datagrams for log_events since the last report`),
    );
    expect(code).toBe(0);
  }, 60_000);
});
