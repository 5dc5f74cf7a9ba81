/**
 * The server licence's alerts, raised by the licence monitor: the expiry alert, once per monitor
 * run while the licence has expired or expires within `serverLicense.alertDaysBefore` days; and
 * the licence's status after every run that read it, which the recurring status webhook wants
 * whether or not there is an alert. Their kinds are counted in `steward_alerts_total{kind}`
 * under the names of their configuration blocks (`serverLicenseExpiry`).
 */

export const LICENCE_EXPIRY_KIND = "serverLicenseExpiry";
export const LICENCE_STATUS_KIND = "serverLicenseStatus";

export interface LicenceExpiryAlert {
  readonly kind: typeof LICENCE_EXPIRY_KIND;
  /** `expired`: the repository says so, or the expiry day is past; `expiring`: within the window. */
  readonly state: "expired" | "expiring";
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
export interface LicenceStatusAlert {
  readonly kind: typeof LICENCE_STATUS_KIND;
  readonly expired: boolean;
  readonly expiryDate: string | undefined;
  readonly daysUntilExpiry: number | undefined;
  /** ISO time of the monitor run. */
  readonly at: string;
}
