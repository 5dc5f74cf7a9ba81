/**
 * The durable event queue's WARNs about its disk budget, each at most once a minute: the log is
 * filling up (past `backpressureThreshold` percent of `maxDiskBytes`) or full (events are refused,
 * with how many since the last WARN), naming the destination that holds it back; and an event
 * refused because its record is larger than the whole budget (413: it can never be queued).
 */
import { createLogThrottle } from "../../../logging/index.ts";
import type { Clock, Logger } from "../../../ports.ts";
import type { DurableLog } from "./durable-log.ts";

export class DiskUseWarnings {
  private readonly throttle = createLogThrottle();

  constructor(
    private readonly log: DurableLog,
    /** Percent of maxDiskBytes from which the log is reported as filling up. */
    private readonly thresholdPct: number,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** After an append: WARNs when the log is full (`full`: it was refused) or filling up. */
  fillingOrFull(full: boolean): void {
    const used = this.log.bytesOnDisk();
    const utilisationPct = (used / this.log.maxDiskBytes) * 100;
    if (!full && utilisationPct < this.thresholdPct) return;
    const count = this.throttle.admit(full ? "full" : "filling", this.clock.now());
    if (count === undefined) return;
    const slowest = this.log.slowest();
    this.logger.warn(
      full
        ? "Audit event queue is full on disk; events are refused (503) until the destination behind catches up"
        : "Audit event queue backpressure: the log on disk is filling up",
      {
        destinationBehind: slowest?.destination ?? "none",
        behindBytes: slowest?.behindBytes ?? 0,
        bytesOnDisk: used,
        maxDiskBytes: this.log.maxDiskBytes,
        utilisationPct: Math.round(utilisationPct),
        ...(full ? { refusedSinceLastWarning: count } : {}),
      },
    );
  }

  tooLarge(recordBytes: number): void {
    const count = this.throttle.admit("too-large", this.clock.now());
    if (count === undefined) return;
    this.logger.warn(
      "Audit event refused (413): it is larger than the whole queue on disk and can never be queued; raise auditEvents.queue.maxDiskBytes or lower auditEvents.maxBodyBytes",
      { recordBytes, maxDiskBytes: this.log.maxDiskBytes, refusedSinceLastWarning: count },
    );
  }
}
