/** The error every TimeseriesClient adapter throws, so core can tell data errors from outages. */
import { isDataRefusal, isTooLarge } from "../data-refusal.ts";
import type { TimeseriesRefusal } from "./timeseries-refusal.ts";

export interface TimeseriesWriteErrorOptions {
  cause?: unknown;
  /** The server's whole answer (the message keeps its first 500 characters). */
  answer?: string | undefined;
  /** What the server refused of a write request, read from its answer by the adapter. */
  refusal?: TimeseriesRefusal | undefined;
}

export class TimeseriesWriteError extends Error {
  override name = "TimeseriesWriteError";
  readonly answer: string | undefined;
  /**
   * Set on a write the server refused as data, or that the adapter refused before sending it
   * (`refusesData`); undefined for an outage.
   */
  readonly refusal: TimeseriesRefusal | undefined;

  constructor(
    message: string,
    /** HTTP status when the server answered; undefined when it could not be reached. */
    readonly status: number | undefined,
    options: TimeseriesWriteErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.answer = options.answer;
    this.refusal = options.refusal;
  }

  /**
   * The server refused the data itself (see isDataRefusal), or the adapter refused it before
   * sending (a refusal without a status: points it cannot encode): writing it again cannot help.
   */
  get refusesData(): boolean {
    return isDataRefusal(this.status) || (this.status === undefined && this.refusal !== undefined);
  }

  /**
   * The request was too large to be read and nothing of it was stored (see isTooLarge): the same
   * body would be refused again, but its points in smaller bodies can be taken. Checked before
   * `refusesData`, which it implies.
   */
  get tooLarge(): boolean {
    return isTooLarge(this.status);
  }
}
