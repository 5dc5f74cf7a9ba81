/**
 * The licence monitor's broker messages, on the topics Butler used so that subscribers keep
 * working: the server licence's state as JSON (`{licenseExpired, expiryDateStr, daysUntilExpiry}`)
 * on every run, and, when the licence has expired or expires within the alert window, one text
 * message saying so on the expiry topic.
 */
import type { BrokerMessage } from "../shared/broker-message.ts";
import type { ServerLicenceReading } from "./server-licence.ts";

export interface LicenceTopics {
  readonly qlikSenseServerLicenseTopic: string;
  readonly qlikSenseServerLicenseExpireTopic: string;
}

/** The alert text, or undefined when the licence is neither expired nor within `alertDaysBefore` days. */
export function expiryAlertText(reading: ServerLicenceReading, alertDaysBefore: number): string | undefined {
  const date = reading.expiryDate ?? "an unknown date";
  const days = reading.daysUntilExpiry;
  if (reading.expired || (days !== undefined && days < 0))
    return `Qlik Sense server license expired on ${date}`;
  if (days !== undefined && days <= alertDaysBefore)
    return `Qlik Sense server license is about to expire in ${days} days, on ${date}`;
  return undefined;
}

export function serverLicenceMessages(
  reading: ServerLicenceReading,
  topics: LicenceTopics,
  alertDaysBefore: number,
): BrokerMessage[] {
  const state = {
    licenseExpired: reading.expired,
    expiryDateStr: reading.expiryDate ?? null,
    daysUntilExpiry: reading.daysUntilExpiry ?? null,
  };
  const messages: BrokerMessage[] = [
    { topic: topics.qlikSenseServerLicenseTopic, payload: JSON.stringify(state) },
  ];
  const alert = expiryAlertText(reading, alertDaysBefore);
  if (alert !== undefined) messages.push({ topic: topics.qlikSenseServerLicenseExpireTopic, payload: alert });
  return messages;
}
