/**
 * The server licence's expiry alert as an event the alert destinations (email, Teams, Slack,
 * webhooks) subscribe to: one event per monitor run while the licence has expired or expires
 * within `serverLicense.alertDaysBefore` days. The monitor emits; a destination calls
 * `subscribe` once when it starts and formats the event its own way. A listener that throws or
 * rejects is logged and never stops the others or the monitor.
 */
import { describeError } from "../destinations/describe-error.ts";
import type { Logger } from "../ports.ts";

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

export type LicenceExpiryListener = (alert: LicenceExpiryAlert) => void | Promise<void>;

export interface LicenceExpiryAlerts {
  /** Adds a listener; the returned function removes it. */
  subscribe(listener: LicenceExpiryListener): () => void;
  /** Hands the alert to every listener; resolves once all have settled. */
  emit(alert: LicenceExpiryAlert): Promise<void>;
}

export function createLicenceExpiryAlerts(logger: Logger): LicenceExpiryAlerts {
  const listeners = new Set<LicenceExpiryListener>();
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    async emit(alert) {
      await Promise.all(
        [...listeners].map(async (listener) => {
          try {
            await listener(alert);
          } catch (error) {
            logger.error("a licence expiry alert destination failed", { error: describeError(error) });
          }
        }),
      );
    },
  };
}
