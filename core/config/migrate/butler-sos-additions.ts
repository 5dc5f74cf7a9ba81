/**
 * What the converter writes beyond renaming, each with a note saying why:
 * - the accounts of the health and session metrics: Butler SOS sent them to the accounts of
 *   `userEvents.sendToNewRelic.destinationAccount`, Steward to those of
 *   `obsPlatform.metric.destinationAccount`, so an empty metric list takes the user-event one;
 * - `restServer.enable: false` and, without an `auditEvents` section, `auditEvents.enable:
 *   false`: Butler SOS runs neither listener then, while Steward's defaults would open both.
 */
import { type Document, isScalar, isSeq, type YAMLMap } from "yaml";
import type { MigrationNote } from "./product-rules.ts";

const METRIC_ACCOUNTS = ["Service", "obsPlatform", "metric", "destinationAccount"];
const USER_EVENT_ACCOUNTS = ["Service", "userEvents", "sendToObsPlatform", "destinationAccount"];

function accountsAt(doc: Document, path: readonly string[]): string[] {
  const node = doc.getIn(path, true);
  if (!isSeq(node)) return [];
  return node.items.flatMap((item) => (isScalar(item) && typeof item.value === "string" ? [item.value] : []));
}

/** Adjustments that span keys; returns a note for each. */
export function adjustAcrossKeys(doc: Document): MigrationNote[] {
  const notes: MigrationNote[] = [];
  if (!doc.hasIn(["Service", "obsPlatform"])) return notes;
  const userEvents = accountsAt(doc, USER_EVENT_ACCOUNTS);
  const metric = accountsAt(doc, METRIC_ACCOUNTS);
  if (userEvents.length === 0 || userEvents.join("\n") === metric.join("\n")) return notes;
  const path = METRIC_ACCOUNTS.join(".");
  if (metric.length === 0) {
    doc.setIn(METRIC_ACCOUNTS, doc.createNode(userEvents, { flow: true }));
    notes.push({
      path,
      message:
        "set to userEvents.sendToObsPlatform.destinationAccount: Butler SOS sent health and session metrics to those accounts, Steward sends them to this list",
    });
  } else {
    notes.push({
      path,
      message: `Butler SOS sent health and session metrics to userEvents.sendToNewRelic.destinationAccount (${userEvents.join(", ")}) and ignored this list; Steward sends them to this list`,
    });
  }
  return notes;
}

export function addSwitchedOff(doc: Document, service: YAMLMap, key: string, comment: string): void {
  const pair = doc.createPair(key, { enable: false });
  (pair.key as { commentBefore?: string }).commentBefore = comment;
  service.items.push(pair as YAMLMap["items"][number]);
}

/** Writes the switches that keep Steward from opening listeners Butler SOS never had. */
export function addStewardOnlyChoices(doc: Document, service: YAMLMap): MigrationNote[] {
  const notes: MigrationNote[] = [];
  if (!service.has("auditEvents")) {
    addSwitchedOff(
      doc,
      service,
      "auditEvents",
      " Added by migrate-config: Butler SOS runs no audit ingest API without an auditEvents section;\n Steward's is on by default (127.0.0.1:8181), so it is switched off here.",
    );
    notes.push({
      path: "Service.auditEvents.enable",
      message: "added as false: the source has no auditEvents section, so Butler SOS ran no audit ingest API",
    });
  }
  if (!service.has("restServer")) {
    addSwitchedOff(
      doc,
      service,
      "restServer",
      " Added by migrate-config: Steward's management REST API (the /v4 endpoints of Butler) is off,\n as Butler SOS has none. Set enable: true to serve it on 127.0.0.1:8081.",
    );
    notes.push({
      path: "Service.restServer.enable",
      message:
        "added as false: Butler SOS has no management REST API; set it to true to serve Butler's /v4 endpoints",
    });
  }
  return notes;
}
