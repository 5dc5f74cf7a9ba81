/**
 * The server licence's expiry alert the alert tests send: 12 days before the expiry, inside a
 * 30-day window, as the licence monitor raises it; a test overrides what it is about.
 */
import { LICENCE_EXPIRY_KIND, type LicenceExpiryAlert } from "../../core/alerts/index.ts";

export function expiringLicence(
  overrides: Partial<Omit<LicenceExpiryAlert, "kind">> = {},
): LicenceExpiryAlert {
  return {
    kind: LICENCE_EXPIRY_KIND,
    state: "expiring",
    expiryDate: "2027-01-31",
    daysUntilExpiry: 12,
    alertDaysBefore: 30,
    text: "Qlik Sense server license is about to expire in 12 days, on 2027-01-31",
    at: "2027-01-19T06:00:00.000Z",
    ...overrides,
  };
}
