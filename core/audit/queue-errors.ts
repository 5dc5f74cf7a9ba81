/** Errors an EventQueue adapter throws when it cannot take an event. */

/** The queue could not take the event for now (throttling, 5xx, network): retry later (503). */
export class EventQueueUnavailableError extends Error {
  override readonly name = "EventQueueUnavailableError";
}

/** The queue refused the event for a reason a retry will not fix (500). */
export class EventQueueError extends Error {
  override readonly name = "EventQueueError";
}
