/**
 * Butler's switches of its Windows service monitor's destinations
 * (`serviceMonitor.alertDestination.<destination>.enable`), written before the walk into the
 * blocks that Steward switches on one by one: email, Teams and Slack's `enable` goes to both their
 * `serviceStopped` and `serviceStarted` blocks (one Butler switch, two Steward blocks), and
 * newRelic's, when off, switches off the event and log of `incidentTool.newRelic.serviceMonitor`.
 * Each switch leaves the source once written; the influxDb, mqtt and webhook switches move by the
 * rules table (butler-rules.ts), one to one.
 */
import { type Document, isMap, type YAMLMap } from "yaml";
import type { MigrationNote } from "./product-rules.ts";

const TWO_BLOCKS = {
  email: "emailNotification",
  teams: "teamsNotification",
  slack: "slackNotification",
} as const;

/** Writes `value` at `path` under the source, first in its block, when the block exists there; true if written. */
function setIn(doc: Document, source: YAMLMap, path: readonly string[], value: boolean): boolean {
  const block = source.getIn(path.slice(0, -1));
  const key = path[path.length - 1] as string;
  if (!isMap(block)) return false;
  block.delete(key);
  block.items.unshift(doc.createPair(key, value));
  return true;
}

export function butlerServiceSwitches(doc: Document, source: YAMLMap): MigrationNote[] {
  const destinations = source.getIn(["serviceMonitor", "alertDestination"]);
  if (!isMap(destinations)) return [];
  const notes: MigrationNote[] = [];
  const switchOf = (name: string) => destinations.getIn([name, "enable"]);
  for (const [name, section] of Object.entries(TWO_BLOCKS)) {
    const on = switchOf(name);
    if (typeof on !== "boolean") continue;
    const written = ["serviceStopped", "serviceStarted"].filter((block) =>
      setIn(doc, source, [section, block, "enable"], on),
    );
    destinations.delete(name);
    if (written.length > 0)
      notes.push({
        path: `Service.${section}.serviceStopped.enable`,
        message: `${section}.${written.join(" and ")}.enable set to ${on} from serviceMonitor.alertDestination.${name}.enable: Steward switches each block on by itself`,
      });
  }
  const newRelic = switchOf("newRelic");
  if (typeof newRelic === "boolean") {
    destinations.delete("newRelic");
    const path = ["incidentTool", "newRelic", "serviceMonitor", "destination"];
    const off =
      !newRelic &&
      ["event", "log"].filter((target) => setIn(doc, source, [...path, target, "enable"], false));
    if (off && off.length > 0)
      notes.push({
        path: "Service.incidentTool.newRelic.serviceMonitor.destination",
        message: `${off.join(" and ")} switched off as serviceMonitor.alertDestination.newRelic.enable was false`,
      });
  }
  return notes;
}
