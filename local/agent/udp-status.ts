/**
 * One UDP listener as the status page shows it (`GET /status`, member `udpQueues`): its socket,
 * its queue's state and cumulative counters, and what the operating system dropped before the
 * queue saw it — `kernelDrops.dropped` is a count since start, or `null` with a `reason` where the
 * system reports no such count, so that the page can say "not available" rather than 0.
 */
import type { KernelDropCount } from "../../core/udp/kernel-drops.ts";
import type { UdpQueueCounters, UdpQueueState } from "../../core/udp/udp-queue.ts";
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
