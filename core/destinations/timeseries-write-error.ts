/** The error every TimeseriesWriter adapter throws, so core can tell data errors from outages. */

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

  /**
   * A 4xx (other than 401/403/404/408/429, which are set-up or load problems) means the server
   * refused the data itself: writing smaller batches can isolate the bad point. Anything else is
   * an outage that smaller batches would not cure.
   */
  get refusesData(): boolean {
    return (
      this.status !== undefined &&
      this.status >= 400 &&
      this.status < 500 &&
      ![401, 403, 404, 408, 429].includes(this.status)
    );
  }
}
