/**
 * The processing stage of a UDP queue: at most `maxConcurrent` datagrams in the processor at
 * once. A slot carries its completion callbacks from one datagram to the next, so the only
 * per-datagram promises are the processor's and its `then`. Each outcome is counted with its
 * processing time; a processor that throws or rejects is counted as failed and logged, never
 * allowed to escape.
 */
import type { DurationWindow } from "../duration-window.ts";
import type { Clock } from "../ports.ts";
import type { DropLog } from "./drop-log.ts";
import type { DatagramOutcome, DatagramProcessor } from "./event-destinations.ts";
import { countOutcome, type UdpQueueCounters } from "./udp-queue-counters.ts";
import type { UdpSender } from "./udp-sender.ts";

interface Slot {
  startedAt: number;
  readonly settled: (outcome: DatagramOutcome) => void;
  readonly failed: (error: unknown) => void;
}

export interface ProcessingSlotsDeps {
  processor: DatagramProcessor;
  /** The queue's counters: this counts the processor's outcomes and failures. */
  counts: UdpQueueCounters;
  drops: DropLog;
  processingTimes: DurationWindow;
  timesInQueue: DurationWindow;
  /** A monotonic clock in ms for the durations. */
  elapsed: () => number;
  clock: Clock;
  /** After each datagram the processor finished with: a slot is free for the next one waiting. */
  onSlotFreed: () => void;
}

export class ProcessingSlots {
  private readonly free: Slot[] = [];
  private busy = 0;

  constructor(
    private readonly maxConcurrent: number,
    private readonly deps: ProcessingSlotsDeps,
  ) {}

  /** Datagrams in the processor now. */
  get running(): number {
    return this.busy;
  }

  /** Every slot is taken: the next datagram waits. */
  get full(): boolean {
    return this.busy >= this.maxConcurrent;
  }

  /** Hands the datagram to the processor; `waitedMs` is its time in the queue. */
  start(
    datagram: Uint8Array,
    sender: UdpSender,
    receivedAtMs: number,
    startedAt: number,
    waitedMs: number,
  ): void {
    const { processor, timesInQueue } = this.deps;
    this.busy += 1;
    const slot = this.free.pop() ?? this.newSlot();
    slot.startedAt = startedAt;
    timesInQueue.record(waitedMs);
    try {
      processor(datagram, receivedAtMs, sender.address).then(slot.settled, slot.failed);
    } catch (error) {
      // A synchronous throw (or no promise at all): account for it here and let the caller's
      // loop go on, rather than recursing into the next datagram.
      this.recordFailure(error);
      this.release(slot);
    }
  }

  private newSlot(): Slot {
    const deps = this.deps;
    const slot: Slot = {
      startedAt: 0,
      settled: (outcome) => {
        deps.processingTimes.record(deps.elapsed() - slot.startedAt);
        countOutcome(deps.counts, outcome);
        this.release(slot);
        deps.onSlotFreed();
      },
      failed: (error) => {
        deps.processingTimes.record(deps.elapsed() - slot.startedAt);
        this.recordFailure(error);
        this.release(slot);
        deps.onSlotFreed();
      },
    };
    return slot;
  }

  private recordFailure(error: unknown): void {
    this.deps.counts.failed += 1;
    this.deps.drops.failed(error, this.deps.clock.now());
  }

  private release(slot: Slot): void {
    this.busy -= 1;
    this.free.push(slot);
  }
}
