/**
 * The error of one failed POST to one observability account, with the HTTP status, so that a
 * batching caller can tell data the platform refuses (retrying cannot help) from an outage
 * (retrying will). An UpstreamError, so the REST edge still answers 502.
 */
import { isDataRefusal } from "../data-refusal.ts";
import { UpstreamError } from "../upstream-error.ts";

export class ObservabilityPostError extends UpstreamError {
  constructor(
    /** The account's name (never its key). */
    readonly account: string,
    /** HTTP status when the platform answered; undefined when it could not be reached. */
    readonly status: number | undefined,
    message: string,
    options?: { cause?: unknown },
  ) {
    super("observability platform", message, options);
    this.name = "ObservabilityPostError";
  }

  /** The platform refused the events themselves (see isDataRefusal). */
  get refusesData(): boolean {
    return isDataRefusal(this.status);
  }
}
