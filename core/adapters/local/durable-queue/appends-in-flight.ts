/**
 * The durable event queue's appends that are not answered yet, and its stop: once stopping, no
 * append begins, and the stop waits for those under way, so that the readers hand out every event
 * that got its 202 before they end.
 */
export class AppendsInFlight {
  private count = 0;
  private settled: (() => void) | undefined;
  private stopRequested = false;

  get stopping(): boolean {
    return this.stopRequested;
  }

  /** Stopping, and no append is under way: nothing more will be appended. */
  get finished(): boolean {
    return this.stopRequested && this.count === 0;
  }

  begin(): void {
    this.count += 1;
  }

  end(): void {
    this.count -= 1;
    if (this.count === 0) this.settled?.();
  }

  /** No append begins from now on; resolves once those under way are answered. */
  async stop(): Promise<void> {
    this.stopRequested = true;
    if (this.count > 0) await new Promise<void>((resolve) => (this.settled = resolve));
  }
}
