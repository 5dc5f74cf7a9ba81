/**
 * The checks a UDP queue makes before a datagram may wait for the processor, in order: its
 * source (the validator logs its rejections itself, throttled per sender), its size
 * (`maxMessageSize` bytes), then the rate limit (one fixed window for the whole socket). Every
 * datagram offered is counted as received, and every refusal under its reason and in the drop log.
 */
import { createFixedWindowCounter, type FixedWindowCounter } from "../ratelimit/index.ts";
import type { DropLog } from "./drop-log.ts";
import type { SourceValidator } from "./source-validator.ts";
import type { UdpQueueCounters } from "./udp-queue-counters.ts";
import type { UdpSender } from "./udp-sender.ts";

/** Why a datagram may not wait for the processor. */
export type AdmissionRefusal = "dropped_source" | "dropped_size" | "dropped_rate_limit";

export interface DatagramAdmissionOptions {
  /** The queue's name in the log lines. */
  name: string;
  maxMessageSize: number;
  /** Datagrams per minute for the whole socket; undefined = no rate limit. */
  maxMessagesPerMinute: number | undefined;
}

export class DatagramAdmission {
  private readonly name: string;
  private readonly maxMessageSize: number;
  private readonly limiter: FixedWindowCounter | undefined;
  /** Built once, called only when the drop's log line is written. */
  private readonly describeRateLimit: () => string;

  constructor(
    options: DatagramAdmissionOptions,
    private readonly sources: SourceValidator,
    /** The queue's counters: this counts `received` and the three drops it decides. */
    private readonly counts: UdpQueueCounters,
    private readonly drops: DropLog,
  ) {
    const { name, maxMessagesPerMinute } = options;
    this.name = name;
    this.maxMessageSize = options.maxMessageSize;
    this.limiter =
      maxMessagesPerMinute === undefined
        ? undefined
        : createFixedWindowCounter({ limit: maxMessagesPerMinute });
    this.describeRateLimit = () =>
      `Rate limit exceeded for ${name}: more than ${maxMessagesPerMinute} messages per minute; dropping until the next minute`;
  }

  /** Counts the datagram as received; why it may not wait for the processor, or undefined if it may. */
  refusal(datagram: Uint8Array, sender: UdpSender, receivedAtMs: number): AdmissionRefusal | undefined {
    const counts = this.counts;
    counts.received += 1;
    if (!this.sources.accepts(sender, receivedAtMs)) {
      counts.droppedSource += 1;
      this.drops.dropped("source", receivedAtMs);
      return "dropped_source";
    }
    if (datagram.byteLength > this.maxMessageSize) {
      counts.droppedSize += 1;
      this.drops.dropped("size", receivedAtMs, () => {
        const from = `${sender.address}:${sender.port}`;
        return `Message for ${this.name} from ${from} exceeds size limit: ${datagram.byteLength} bytes (max ${this.maxMessageSize})`;
      });
      return "dropped_size";
    }
    if (this.limiter !== undefined && !this.limiter.tryTake(receivedAtMs)) {
      counts.droppedRateLimit += 1;
      this.drops.dropped("rate_limit", receivedAtMs, this.describeRateLimit);
      return "dropped_rate_limit";
    }
    return undefined;
  }

  /** Datagrams admitted per minute in the current rate-limit window; 0 without a rate limit. */
  rateLimitCurrent(nowMs: number): number {
    return this.limiter === undefined ? 0 : this.limiter.ratePerMinute(nowMs);
  }
}
