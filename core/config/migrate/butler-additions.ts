/**
 * What the Butler converter writes beyond the rules table, each with a note saying why:
 * - before the walk, the X-Qlik-User header of `configQRS` / `configEngine` becomes the section's
 *   `userHeader` (Steward's `platform.userHeader`): Butler kept the user it calls the platform as
 *   in a list of headers, Steward in one setting; Butler's Qlik Cloud tenant becomes a tenant
 *   of `qlikCloud.tenants` (butler-cloud-tenant.ts); and the service monitor's destination
 *   switches become the `enable` of the blocks they switched (butler-service-monitor.ts);
 * - after the walk, the switches Butler expressed elsewhere or implied: the time-series database
 *   version (Butler spoke InfluxDB 1.x only), task-event MQTT messages (Butler published them
 *   whenever its broker connection was on), the licence monitor's own switch (on when one of
 *   Butler's monitors was), and the listeners Steward would open and Butler did not have.
 */
import { type Document, isMap, isPair, isScalar, isSeq, type Pair, type YAMLMap } from "yaml";
import { butlerCloudTenant } from "./butler-cloud-tenant.ts";
import { butlerServiceSwitches } from "./butler-service-monitor.ts";
import { addSwitchedOff } from "./butler-sos-additions.ts";
import type { MigrationNote } from "./product-rules.ts";

const USER_HEADER = "x-qlik-user";

function member(map: YAMLMap, key: string): Pair | undefined {
  return map.items.find((item) => isPair(item) && isScalar(item.key) && item.key.value === key) as
    | Pair
    | undefined;
}

/** Replaces the X-Qlik-User entry of `section.headers.static` by `section.userHeader`; true if there was one. */
function liftUserHeader(doc: Document, source: YAMLMap, section: string): boolean {
  const sectionPair = member(source, section);
  if (sectionPair === undefined || !isMap(sectionPair.value)) return false;
  const headers = member(sectionPair.value, "headers");
  const list =
    headers !== undefined && isMap(headers.value) ? member(headers.value, "static")?.value : undefined;
  if (!isSeq(list)) return false;
  const index = list.items.findIndex((item) => {
    const name = isMap(item) ? item.get("name") : undefined;
    return typeof name === "string" && name.toLowerCase() === USER_HEADER;
  });
  const value = index === -1 ? undefined : (list.items[index] as YAMLMap).get("value");
  if (typeof value !== "string") return false;
  list.items.splice(index, 1);
  const items = sectionPair.value.items;
  items.splice(items.indexOf(headers as (typeof items)[number]), 0, doc.createPair("userHeader", value));
  if (list.items.length === 0) items.splice(items.indexOf(headers as (typeof items)[number]), 1);
  return true;
}

export function prepareButler(doc: Document, source: YAMLMap): MigrationNote[] {
  const sections = ["configQRS", "configEngine"].filter((section) => liftUserHeader(doc, source, section));
  const cloud = [...butlerServiceSwitches(doc, source), ...butlerCloudTenant(doc, source)];
  if (sections.length === 0) return cloud;
  const from = sections.map((section) => `${section}.headers.static`).join(" and ");
  return [
    {
      path: "Service.platform.userHeader",
      message: `from the X-Qlik-User header of ${from}: Steward calls the platform as this user`,
    },
    ...cloud,
  ];
}

const isOn = (doc: Document, path: readonly string[]) => doc.getIn(["Service", ...path]) === true;

/** Butler wrote to InfluxDB 1.x only; Steward's default version is 3. */
function timeseriesdbVersion(doc: Document): MigrationNote[] {
  if (
    !doc.hasIn(["Service", "timeseriesdbConfig"]) ||
    doc.hasIn(["Service", "timeseriesdbConfig", "version"])
  ) {
    return [];
  }
  doc.setIn(["Service", "timeseriesdbConfig", "version"], 1);
  return [
    {
      path: "Service.timeseriesdbConfig.version",
      message: "set to 1: Butler wrote to InfluxDB 1.x only (Steward's default is 3)",
    },
  ];
}

/** Butler published failed and aborted reloads to the broker whenever its connection was on. */
function taskEventMessages(doc: Document): MigrationNote[] {
  if (!isOn(doc, ["mqttConfig", "enable"]) || doc.hasIn(["Service", "taskEvents", "sendToMQTT", "enable"])) {
    return [];
  }
  doc.setIn(["Service", "taskEvents", "sendToMQTT", "enable"], true);
  return [
    {
      path: "Service.taskEvents.sendToMQTT.enable",
      message:
        "set to true as mqttConfig.enable is: Butler published failed and aborted reloads whenever its broker connection was on",
    },
  ];
}

/** Butler had a switch per monitor; Steward has one for the section as well, on when one of them is. */
function licenceSwitch(doc: Document): MigrationNote[] {
  if (
    !isMap(doc.getIn(["Service", "licenseMonitor"])) ||
    doc.hasIn(["Service", "licenseMonitor", "enable"])
  ) {
    return [];
  }
  const parts = ["accessLicenses", "serverLicense", "version", "licenseRelease"];
  const on = parts.some((part) => isOn(doc, ["licenseMonitor", part, "enable"]));
  doc.setIn(["Service", "licenseMonitor", "enable"], on);
  return [
    {
      path: "Service.licenseMonitor.enable",
      message: `set to ${on}: Butler's licence and version monitors had a switch each, ${on ? "one of them was on" : "none was on"}`,
    },
  ];
}

/** The listeners Steward opens by default and Butler did not have (or had switched off). */
function listeners(doc: Document, service: YAMLMap): MigrationNote[] {
  const notes: MigrationNote[] = [];
  if (!service.has("auditEvents")) {
    addSwitchedOff(
      doc,
      service,
      "auditEvents",
      " Added by migrate-config: Butler has no audit ingest API; Steward's is on by default\n (127.0.0.1:8181), so it is switched off here.",
    );
    notes.push({
      path: "Service.auditEvents.enable",
      message: "added as false: Butler has no audit ingest API",
    });
  }
  if (!doc.hasIn(["Service", "restServer", "enable"])) {
    doc.setIn(["Service", "restServer", "enable"], false);
    notes.push({
      path: "Service.restServer.enable",
      message: "added as false: Butler's restServerConfig.enable was not set, so Butler served no REST API",
    });
  }
  return notes;
}

export function finishButler(doc: Document, service: YAMLMap): MigrationNote[] {
  return [
    ...timeseriesdbVersion(doc),
    ...taskEventMessages(doc),
    ...licenceSwitch(doc),
    ...listeners(doc, service),
  ];
}
