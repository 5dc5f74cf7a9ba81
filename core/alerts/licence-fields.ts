/**
 * The template fields of the server licence's alerts, beside the task alerts' (task-fields.ts):
 * the one sentence every destination leads with ("Qlik Sense server licence expires in 12 days,
 * on 2027-01-31"), and the fields an operator's own email, Teams or Slack template can use, under
 * Butler's names and event texts, so that templates and receivers built for Butler keep working.
 *
 * Unlike Butler, `daysUntilExpiry` keeps its sign: after the expiry day it is negative, so a
 * receiver can tell "expired 3 days ago" from "expires in 3 days".
 */

import type { AlertLinks } from "./alert-view.ts";
import type { LicenceExpiryAlert } from "./licence-alert.ts";

/** Butler's event texts, which receivers may filter on. */
export const LICENCE_EVENT = {
  expired: "server license has expired alert",
  expiring: "server license about to expire alert",
  status: "server license status",
} as const;

export function licenceSentence(alert: Pick<LicenceExpiryAlert, "state" | "expiryDate" | "daysUntilExpiry">) {
  const { state, expiryDate, daysUntilExpiry: days } = alert;
  if (state === "expired")
    return expiryDate === undefined
      ? "Qlik Sense server licence has expired"
      : `Qlik Sense server licence expired on ${expiryDate}`;
  if (days === undefined || expiryDate === undefined) return "Qlik Sense server licence expires soon";
  if (days === 0) return `Qlik Sense server licence expires today, ${expiryDate}`;
  return `Qlik Sense server licence expires in ${days} ${days === 1 ? "day" : "days"}, on ${expiryDate}`;
}

export interface LicenceTemplateFields {
  /** Butler's event text: `server license has expired alert` or `server license about to expire alert`. */
  readonly event: string;
  /** The built-in sentence, e.g. `Qlik Sense server licence expires in 12 days, on 2027-01-31`. */
  readonly message: string;
  readonly licenseExpired: boolean;
  /** `YYYY-MM-DD`, or `unknown` when the licence has no readable date. */
  readonly expiryDate: string;
  /** The same date under Butler's name. */
  readonly expiryDateStr: string;
  /** Days until the expiry day, negative after it; `unknown` without a date. */
  readonly daysUntilExpiry: number | "unknown";
  readonly alertDaysBefore: number;
  /** The server the licence was read from (`platform.host`). */
  readonly hostName: string;
  /** ISO time of the monitor run that raised the alert. */
  readonly alertTime: string;
  readonly qlikSenseQMC: string;
  readonly qlikSenseHub: string;
  readonly genericUrls: AlertLinks["genericUrls"];
}

export function licenceTemplateFields(
  alert: LicenceExpiryAlert,
  links: AlertLinks,
  hostName: string,
): LicenceTemplateFields {
  const expiryDate = alert.expiryDate ?? "unknown";
  return {
    event: LICENCE_EVENT[alert.state],
    message: licenceSentence(alert),
    licenseExpired: alert.state === "expired",
    expiryDate,
    expiryDateStr: expiryDate,
    daysUntilExpiry: alert.daysUntilExpiry ?? "unknown",
    alertDaysBefore: alert.alertDaysBefore,
    hostName,
    alertTime: alert.at,
    qlikSenseQMC: links.qlikSenseUrls.qmc,
    qlikSenseHub: links.qlikSenseUrls.hub,
    genericUrls: links.genericUrls,
  };
}
