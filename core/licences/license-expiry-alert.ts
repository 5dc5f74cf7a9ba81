/**
 * The server licence's expiry alert as an event the alert destinations (email, Teams, Slack,
 * webhooks) subscribe to: one event per monitor run while the licence has expired or expires
 * within `serverLicense.alertDaysBefore` days. Besides, the licence's status after every run that
 * read it (the recurring status webhook wants it whether or not there is an alert). The monitor
 * emits; a destination subscribes once when it starts and formats the event its own way. A
 * listener that throws or rejects is logged and never stops the others or the monitor.
 */

import type { Logger } from "../ports.ts";
import { describeError } from "../shared/describe-error.ts";

export interface LicenceExpiryAlert {
  /** `expired`: the repository says so, or the expiry day is past; `expiring`: within the window. */
  readonly kind: "expired" | "expiring";
  /** `YYYY-MM-DD`, or undefined when the licence has no readable date. */
  readonly expiryDate: string | undefined;
  /** Days until the expiry day (negative after it), or undefined without a date. */
  readonly daysUntilExpiry: number | undefined;
  readonly alertDaysBefore: number;
  /** The one-line text the log and the broker carry. */
  readonly text: string;
  /** ISO time of the monitor run that raised it. */
  readonly at: string;
}

/** The server licence as one monitor run read it, alert or not. */
export interface ServerLicenceStatus {
  readonly expired: boolean;
  readonly expiryDate: string | undefined;
  readonly daysUntilExpiry: number | undefined;
  /** ISO time of the monitor run. */
  readonly at: string;
}

export type LicenceExpiryListener = (alert: LicenceExpiryAlert) => void | Promise<void>;
export type LicenceStatusListener = (status: ServerLicenceStatus) => void | Promise<void>;

export interface LicenceExpiryAlerts {
  /** Adds a listener; the returned function removes it. */
  subscribe(listener: LicenceExpiryListener): () => void;
  /** Hands the alert to every listener; resolves once all have settled. */
  emit(alert: LicenceExpiryAlert): Promise<void>;
  /** Adds a listener of every run's status; the returned function removes it. */
  subscribeStatus(listener: LicenceStatusListener): () => void;
  /** Hands the status to every status listener; resolves once all have settled. */
  emitStatus(status: ServerLicenceStatus): Promise<void>;
}

type Listener<T> = (value: T) => void | Promise<void>;

function listenerSet<T>(logger: Logger, what: string) {
  const listeners = new Set<Listener<T>>();
  return {
    subscribe(listener: Listener<T>): () => void {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    async emit(value: T): Promise<void> {
      await Promise.all(
        [...listeners].map(async (listener) => {
          try {
            await listener(value);
          } catch (error) {
            logger.error(`a licence ${what} destination failed`, { error: describeError(error) });
          }
        }),
      );
    },
  };
}

export function createLicenceExpiryAlerts(logger: Logger): LicenceExpiryAlerts {
  const alerts = listenerSet<LicenceExpiryAlert>(logger, "expiry alert");
  const statuses = listenerSet<ServerLicenceStatus>(logger, "status");
  return {
    subscribe: alerts.subscribe,
    emit: alerts.emit,
    subscribeStatus: statuses.subscribe,
    emitStatus: statuses.emit,
  };
}
