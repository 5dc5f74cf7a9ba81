/** The error every TimeseriesWriter adapter throws, so core can tell data errors from outages. */
import { isDataRefusal } from "../data-refusal.ts";

export class TimeseriesWriteError extends Error {
  override name = "TimeseriesWriteError";
  constructor(
    message: string,
    /** HTTP status when the server answered; undefined when it could not be reached. */
    readonly status: number | undefined,
    options?: { cause: unknown },
  ) {
    super(message, options);
  }

  /** The server refused the data itself (see isDataRefusal): smaller batches can isolate the bad point. */
  get refusesData(): boolean {
    return isDataRefusal(this.status);
  }
}
