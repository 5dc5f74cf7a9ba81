/**
 * qlikCloud: the Qlik Cloud tenants Steward takes reload runs from, beside the client-managed
 * platform. Off by default; each tenant is validated when the section is on. A tenant is reached
 * at its own `url` with one credential (an OAuth machine-to-machine client, preferred because its
 * tokens expire on their own, or an API key), receives signed webhooks on the ingest API's
 * listener and is polled from a persisted cursor; which of the two ways in run is the tenant's
 * own choice (docs/qlik-cloud.md). The rules between settings (unique names, exactly one
 * credential, webhooks needing the ingest listener) are in core/config/qlik-cloud-checks.ts.
 */
import * as v from "valibot";
import {
  bool,
  int,
  list,
  nameValueList,
  requiredFormat,
  requiredHttpUrl,
  section,
  str,
} from "./primitives.ts";
import { scheduleExpression } from "./self-monitoring.ts";
import { scriptLogFilesSection } from "./task-events.ts";

/**
 * A tenant's name: its `tenant` tag and label, part of the webhook's path
 * (`/api/v1/qlik-cloud/webhooks/<name>`) and of the cursor files' names, so lower-case letters,
 * digits and hyphens only (safe in a URL path, a file name on every system and a tag value).
 */
export const TENANT_NAME = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** Qlik's own rule for a webhook's secret (the management console refuses others). */
export const WEBHOOK_SECRET_LENGTH = { min: 32, max: 64 } as const;

/** How far back a first start may read: the audits API keeps events 90 days. */
export const MAX_INITIAL_HOURS = 90 * 24;

const isSecretLength = (secret: string) =>
  secret.length >= WEBHOOK_SECRET_LENGTH.min && secret.length <= WEBHOOK_SECRET_LENGTH.max;

const tenantSchema = v.object({
  name: requiredFormat(
    (name) => TENANT_NAME.test(name),
    "must be 1 to 63 lower-case letters, digits and hyphens (a-z, 0-9, -), starting and ending with a letter or digit",
  ),
  url: requiredHttpUrl("the tenant's address takes no credentials: give them under auth"),
  auth: section({
    oauth: section({ clientId: str(""), clientSecret: str("") }),
    apiKey: str(""),
  }),
  webhook: section({
    enable: bool(true),
    secret: requiredFormat(
      isSecretLength,
      `must be ${WEBHOOK_SECRET_LENGTH.min} to ${WEBHOOK_SECRET_LENGTH.max} characters long, as Qlik requires of a webhook's secret`,
    ),
  }),
  poll: section({
    enable: bool(true),
    interval: scheduleExpression("every 5 minutes"),
    initialHours: int(24, 0, MAX_INITIAL_HOURS),
  }),
  licences: section({ enable: bool(true) }),
  tags: section({ static: nameValueList() }),
});

export const qlikCloudSchema = section({
  enable: bool(false),
  tenants: list(tenantSchema),
  // The tenants' reload points, under the measurements of the site's reloads
  // (core/qlik-cloud/cloud-run-points.ts); written when timeseriesdbConfig.enable is on.
  timeseriesdb: section({
    reloadFailure: section({ enable: bool(true) }),
    reloadSuccess: section({ enable: bool(false) }),
  }),
  /**
   * The full script log of each failed run of every tenant kept on disk, Butler's
   * `scriptLog.storeOnDisk.qsCloud`: `<directory>/<YYYY-MM-DD>/<tenant>-<appId>-<reloadId>.log`.
   * Its own section here rather than a switch under `taskEvents.scriptLogFiles`, because a site
   * with Qlik Cloud tenants only does not turn `taskEvents` on (that starts the site's UDP
   * listener), and a user looks for a tenant's settings under `qlikCloud`. The settings are those
   * of `taskEvents.scriptLogFiles` (the same writer, retention and size cap); the default directory
   * is a separate one, so each size cap counts only the files it keeps. Only the local process
   * writes these files: the cloud functions keep no files.
   */
  scriptLogFiles: scriptLogFilesSection("./data/qlik-cloud-script-logs"),
});
