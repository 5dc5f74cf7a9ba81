/**
 * What the server licence's alert messages say: the one sentence every destination leads with
 * ("Qlik Sense server licence expires in 12 days, on 2027-01-31"), the fields an operator's own
 * email, Teams or Slack template can use, and the webhook payloads under Butler's names and
 * event texts, so that receivers built for Butler keep working.
 *
 * Unlike Butler, `daysUntilExpiry` keeps its sign: after the expiry day it is negative, so a
 * receiver can tell "expired 3 days ago" from "expires in 3 days".
 */
import type { LicenceExpiryAlert, ServerLicenceStatus } from "../../licences/license-expiry-alert.ts";
import type { TemplateLinks } from "../../task-events/template-fields.ts";
import type { WebhookValue } from "../webhook-caller.ts";

/** The links alerts carry: the same `qlikSenseUrls` and `genericUrls` as the task alerts'. */
export type LicenceLinks = TemplateLinks;

/** The alert kinds of the server licence as counted in `steward_alerts_total{kind}`. */
export const LICENCE_EXPIRY_KIND = "serverLicenseExpiry";
export const LICENCE_STATUS_KIND = "serverLicenseStatus";

/** Butler's event texts, which receivers may filter on. */
const EVENT = {
  expired: "server license has expired alert",
  expiring: "server license about to expire alert",
  status: "server license status",
} as const;

export function licenceSentence(alert: Pick<LicenceExpiryAlert, "kind" | "expiryDate" | "daysUntilExpiry">) {
  const { kind, expiryDate, daysUntilExpiry: days } = alert;
  if (kind === "expired")
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
  readonly genericUrls: LicenceLinks["genericUrls"];
}

export function licenceTemplateFields(
  alert: LicenceExpiryAlert,
  links: LicenceLinks,
  hostName: string,
): LicenceTemplateFields {
  const expiryDate = alert.expiryDate ?? "unknown";
  return {
    event: EVENT[alert.kind],
    message: licenceSentence(alert),
    licenseExpired: alert.kind === "expired",
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

type Payload = Record<string, WebhookValue>;

/** The expiry alert webhook's payload: Butler's four fields (null where the licence has no date). */
export function licenceAlertPayload(alert: LicenceExpiryAlert): Payload {
  return {
    event: EVENT[alert.kind],
    licenseExpired: alert.kind === "expired",
    expiryDateStr: alert.expiryDate ?? null,
    daysUntilExpiry: alert.daysUntilExpiry ?? null,
  };
}

/** The recurring status webhook's payload, after every run that read the licence. */
export function licenceStatusPayload(status: ServerLicenceStatus): Payload {
  return {
    event: EVENT.status,
    licenseExpired: status.expired || (status.daysUntilExpiry ?? 0) < 0,
    expiryDateStr: status.expiryDate ?? null,
    daysUntilExpiry: status.daysUntilExpiry ?? null,
  };
}
