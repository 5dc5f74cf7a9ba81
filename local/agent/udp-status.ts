/**
 * One UDP listener as the status page shows it (`GET /status`, member `udpQueues`): its socket,
 * its queue's state and cumulative counters, and what the operating system dropped before the
 * queue saw it — `kernelDrops.dropped` is a count since start, or `null` with a `reason` where the
 * system reports no such count (and `notOnThisPlatform` where it never does), so that the page can
 * say "not available" or "not available on this platform" rather than 0.
 * `showUdpStatus` puts the UDP events on the board: listeners, queues, destinations and event counts.
 */
import type { StatusBoard } from "../../core/monitoring/index.ts";
import type { KernelDropCount, UdpQueueCounters, UdpQueueState } from "../../core/udp/index.ts";
import type { UdpEvents } from "./udp-events.ts";
import type { UdpPipelineView } from "./udp-pipeline.ts";

export interface UdpListenerStatus {
  state: "running";
  address: string;
  queue: UdpQueueState;
  counters: UdpQueueCounters;
  kernelDrops: KernelDropCount;
}

export function udpListenerStatus(
  view: Pick<UdpPipelineView, "queue" | "socket" | "kernelDrops">,
): UdpListenerStatus {
  const { queue, socket } = view;
  return {
    state: "running",
    address: `${socket.address}:${socket.port}`,
    queue: queue.state(),
    counters: queue.counters(),
    kernelDrops: view.kernelDrops.count(),
  };
}

/** Each UDP queue's state and counters, its destinations' stats and the event counts on the status page. */
export function showUdpStatus(status: StatusBoard, udp: UdpEvents): void {
  for (const view of [udp.userEvents, udp.logEvents]) {
    if (view === undefined) continue;
    const { queue, destinations, socket } = view;
    status.countEvents(() => queue.counters().received);
    status.set("udpQueues", queue.name, () => udpListenerStatus(view));
    status.set("listeners", `UDP ${queue.name}`, () => ({
      state: "listening",
      url: `udp://${socket.address}:${socket.port}`,
    }));
    for (const destination of Object.keys(destinations.stats())) {
      status.set("destinations", `${queue.name}.${destination}`, () => destinations.stats()[destination]);
    }
  }
  status.setEventCounts(() => udp.eventTotals());
}
