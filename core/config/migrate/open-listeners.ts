/**
 * What the converted file needs so that a listener the product served to the network is served
 * as before, visibly. Butler's REST API had no token at all, and Butler SOS's Prometheus endpoint
 * and status page none either; Steward refuses to serve those on a host other than loopback
 * unless the section says `allowUnauthenticated: true` (../open-listeners.ts). So where the
 * converted section is on, on such a host and (REST API) without a token, the converter writes
 * that switch, with a comment beside it and a note: the file then starts as the product did, and
 * says in plain sight that it answers anyone.
 *
 * Every listener on such a host also answers, besides IP addresses and `localhost`, only the
 * names in its `allowedHosts` (local/http/host-check.ts), which the product did not check; the
 * names clients use cannot be read from the file, so a note says to list them.
 */
import { type Document, isMap, isScalar } from "yaml";
import { isLoopbackHost } from "../validators.ts";
import type { MigrationNote } from "./product-rules.ts";

/** The sections with a listener, what it serves, and whether it can have a token. */
const LISTENERS = [
  { section: "auditEvents", what: "the audit ingest API", tokenless: false },
  { section: "restServer", what: "the REST API", tokenless: true },
  { section: "configVisualisation", what: "the status page", tokenless: true },
  { section: "scrapeEndpoint", what: "the scrape endpoint", tokenless: true },
] as const;

/** A literal value of the converted file (a `${NAME}` reference is not known until start). */
function literal(doc: Document, path: readonly string[]): unknown {
  const value = doc.getIn(path);
  return typeof value === "string" && value.includes("${") ? undefined : value;
}

/** Adds `key: true` to the section at `path`, after its host and port, with `comment` above it. */
function addCommented(doc: Document, path: readonly string[], key: string, comment: string): void {
  const section = doc.getIn(path, true);
  if (!isMap(section)) return;
  const pair = doc.createPair(key, true);
  (pair.key as { commentBefore?: string }).commentBefore = comment;
  const keyOf = (item: (typeof section.items)[number]) => (isScalar(item.key) ? item.key.value : item.key);
  const after = Math.max(
    ...["host", "port"].map((name) => section.items.findIndex((item) => keyOf(item) === name)),
  );
  section.items.splice(after + 1, 0, pair as (typeof section.items)[number]);
}

export function keepOpenListeners(doc: Document, product: string): MigrationNote[] {
  const notes: MigrationNote[] = [];
  for (const { section, what, tokenless } of LISTENERS) {
    const path = ["Service", section];
    const host = literal(doc, [...path, "host"]);
    if (literal(doc, [...path, "enable"]) !== true || typeof host !== "string" || isLoopbackHost(host))
      continue;
    const token = section === "restServer" ? doc.getIn([...path, "apiToken"]) : "";
    if (tokenless && (token === undefined || token === "") && !doc.hasIn([...path, "allowUnauthenticated"])) {
      addCommented(
        doc,
        path,
        "allowUnauthenticated",
        ` Added by migrate-config: ${product} served ${what} on ${host} without a token, as this line\n keeps doing; Steward refuses that unless told so.${section === "restServer" ? " Set apiToken instead (and give it to\n the callers)." : ""}`,
      );
      notes.push({
        path: `Service.${section}.allowUnauthenticated`,
        message: `added as true: ${product} served ${what} on ${host} without a token, which Steward refuses unless this says so${section === "restServer" ? "; set restServer.apiToken and give it to the callers instead" : ""}`,
      });
    }
    notes.push({
      path: `Service.${section}.allowedHosts`,
      message: `${what} on ${host} answers IP addresses and localhost in the Host header; list the names clients use to reach it (e.g. qlik-ops.corp.local) here, or they get 421`,
    });
  }
  return notes;
}
