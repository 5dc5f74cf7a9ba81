/**
 * What every alert message shows besides the alert itself, the same for every channel: the
 * configured links (the management console, the hub, an app's page, the operator's own), the
 * platform's host the licence was read from, the zone of local times, and Steward's version.
 */
import type { GenericUrlConfig, QlikSenseUrlsConfig } from "../config/index.ts";

/** The links alerts carry: `qlikSenseUrls` and `genericUrls`, under Butler's names. */
export interface AlertLinks {
  readonly qlikSenseUrls: QlikSenseUrlsConfig;
  readonly genericUrls: readonly GenericUrlConfig[];
}

export interface AlertView {
  readonly links: AlertLinks;
  /** `platform.host`: the server the licence alerts name. */
  readonly hostName: string;
  /** IANA time zone of the local times in messages; the process's own when undefined. */
  readonly timeZone?: string | undefined;
  /** Steward's version, which the observability platform's posts carry. */
  readonly version: string;
}
