import { describe, expect, it } from "vitest";
import { EventQueueUnavailableError } from "../../../../core/audit/queue-errors.ts";
import type { EnqueueResult, EventQueue } from "../../../../core/ports.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { createForwardingQueue } from "../../../../local/audit/forwarding-queue.ts";
import { acceptedEvent } from "../../../helpers/audit-events.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";

function gatedTarget() {
  const pending: Array<(result: EnqueueResult | Error) => void> = [];
  const target: EventQueue = {
    enqueue: () =>
      new Promise((resolve, reject) =>
        pending.push((result) => (result instanceof Error ? reject(result) : resolve(result))),
      ),
  };
  return { target, release: (result: EnqueueResult | Error) => pending.shift()?.(result) };
}

describe("forwarding queue", () => {
  it("answers what the target answered and counts acknowledged and failed sends", async () => {
    const { target, release } = gatedTarget();
    const queue = createForwardingQueue(target, { clock: systemClock });

    const first = queue.enqueue(acceptedEvent());
    const second = queue.enqueue(acceptedEvent());
    expect(queue.metrics().running).toBe(2);
    release("queued");
    release(new EventQueueUnavailableError("throttled"));

    expect(await first).toBe("queued");
    await expect(second).rejects.toBeInstanceOf(EventQueueUnavailableError);
    expect(queue.metrics()).toMatchObject({ received: 2, queued: 1, processed: 1, failed: 1, running: 0 });
  });

  it("counts an event the target can never take as dropped for size, not as failed", async () => {
    const { target, release } = gatedTarget();
    const queue = createForwardingQueue(target, { clock: systemClock });

    const sent = queue.enqueue(acceptedEvent());
    release("too-large");

    expect(await sent).toBe("too-large");
    expect(queue.metrics()).toMatchObject({
      received: 1,
      queued: 0,
      failed: 0,
      droppedSize: 1,
      droppedTotal: 1,
    });
  });

  it("waits at stop for the sends in flight and refuses new events", async () => {
    const { target, release } = gatedTarget();
    const queue = createForwardingQueue(target, { clock: systemClock });
    const inFlight = queue.enqueue(acceptedEvent());

    let stopped = false;
    const stopping = queue.stop().then(() => {
      stopped = true;
    });
    await expect(queue.enqueue(acceptedEvent())).rejects.toBeInstanceOf(EventQueueUnavailableError);
    expect(stopped).toBe(false);
    release("queued");
    await stopping;

    expect(await inFlight).toBe("queued");
    expect(stopped).toBe(true);
  });

  it("reports how long the sends took as processing times", async () => {
    const { target, release } = gatedTarget();
    const clock = createManualClock();
    const queue = createForwardingQueue(target, { clock });
    const first = queue.enqueue(acceptedEvent());
    const second = queue.enqueue(acceptedEvent());

    clock.advance(10);
    release("queued");
    await first;
    clock.advance(30);
    release("queued");
    await second;

    expect(queue.metrics()).toMatchObject({
      processingTimeAvgMs: 25,
      processingTimeP95Ms: 40,
      processingTimeMaxMs: 40,
    });
  });
});
