/**
 * A destination of the server licence's events: its name (`email`, `teams`, `slack`, `webhook`),
 * the kind it counts under in `steward_alerts_total{kind}`, and a send that answers as a task
 * alert's does — sent, suppressed by the rate limit, skipped with a reason — or throws an
 * AlertSendError when it failed.
 */
import type { AlertSendResult } from "../../task-events/alert-destination.ts";

export interface LicenceDestination<T> {
  readonly name: string;
  readonly kind: string;
  send(value: T): Promise<AlertSendResult>;
}
