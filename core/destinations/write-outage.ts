/**
 * A destination's outage as an item batcher sees it: the writes that failed since the last one
 * that got through. Every failure is counted; it is logged as a WARN naming the destination at
 * most once a minute (the first failure of an outage at once, then one line a minute with how many
 * failed writes it stands for; the others at DEBUG), so a long outage neither floods the log nor
 * goes quiet, and an INFO line says when writes resume.
 */
import { createLogThrottle } from "../logging/index.ts";
import type { Clock, Logger } from "../ports.ts";
import { describeError } from "../shared/describe-error.ts";

export class WriteOutage {
  private readonly throttle = createLogThrottle();
  private failures = 0;
  /** Failed writes since the last one that got through; 0 = no outage. */
  private failingSince = 0;
  private latest: unknown;

  constructor(
    /** The destination's name in the log lines. */
    private readonly name: string,
    /** Plural noun for the log lines, e.g. "points". */
    private readonly noun: string,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Failed writes, every outage counted. */
  get failedWrites(): number {
    return this.failures;
  }

  /** The latest failure: the cause of what a shutdown leaves unwritten. */
  get lastError(): unknown {
    return this.latest;
  }

  /** A write of `items` items failed and will be tried again in `retryInMs`. */
  failed(error: unknown, items: number, retryInMs: number): void {
    this.failures += 1;
    this.failingSince += 1;
    this.latest = error;
    const failedWrites = this.throttle.admit("write failed", this.clock.now());
    const fields = { destination: this.name, items, retryInMs, error: describeError(error) };
    const message = `writing ${this.noun} failed; will retry`;
    if (failedWrites === undefined) this.logger.debug(message, fields);
    else this.logger.warn(message, { ...fields, failedWrites });
  }

  /** A write got through (or was answered with a refusal): an outage in progress is over. */
  ended(): void {
    if (this.failingSince === 0) return;
    this.logger.info(`writing ${this.noun} resumed`, {
      destination: this.name,
      failedWrites: this.failingSince,
    });
    this.failingSince = 0;
  }
}
