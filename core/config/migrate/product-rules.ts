/**
 * What a product's rules table gives the shared walk (./walk.ts): the product's top-level key,
 * its key rules by path, its value transforms, the behaviour notes, and the adjustments that span
 * keys. One converter serves Butler SOS (./butler-sos-rules.ts) and Butler (./butler-rules.ts);
 * only the tables differ.
 *
 * Paths are relative to the product's top-level key, with `[]` for list items. A key not named
 * keeps its name and place; if Steward has no setting there, the walk leaves it out and says so.
 * A rule renames a key in place (its value, members and comments go with it), lifts a mapping's
 * members into its parent (the key itself disappears), moves the key to an absolute place in the
 * result (`to`, below `Service`; the mappings on the way are created when missing, and its
 * members are converted against Steward's schema there), or drops it with the reason a person
 * reads. A move lets one Butler section feed several Steward ones (`udpServerConfig` goes to
 * `taskEvents`, `influxDb.reloadTaskFailure` to `taskEvents.timeseriesdb`), and it is taken
 * even out of a section Steward's schema lacks (`slackNotification.restMessage.webhookURL` goes to
 * `chat.webhookURL` whether or not Steward has `slackNotification`), so a setting that has a home
 * is never lost with its neighbours.
 */
import type { Document, YAMLMap } from "yaml";

export type MigrationRule =
  | { readonly kind: "rename"; readonly to: string }
  | { readonly kind: "lift" }
  | { readonly kind: "move"; readonly to: readonly string[] }
  | { readonly kind: "drop"; readonly reason: string };

export const rename = (to: string): MigrationRule => ({ kind: "rename", to });
export const lift: MigrationRule = { kind: "lift" };
/** `to` is a dotted path below `Service`, e.g. `taskEvents.udpServerConfig`. */
export const move = (to: string): MigrationRule => ({ kind: "move", to: to.split(".") });
export const drop = (reason: string): MigrationRule => ({ kind: "drop", reason });

/** A key of the source left out of the result. */
export interface DroppedKey {
  /** Its path in the source, e.g. `Butler-SOS.prometheus.nodeMetricsHost`. */
  readonly path: string;
  readonly reason: string;
}

/** A value changed, added or working differently, with the reason. */
export interface MigrationNote {
  /** A path in the result (`Service....`) or in the source (`Butler-SOS....`). */
  readonly path: string;
  readonly message: string;
}

/** A changed value and why. */
export interface ValueChange {
  readonly value: unknown;
  readonly note: string;
}

/** Given the source value: the new one and why, or undefined to keep it. */
export type ValueTransform = (value: unknown) => ValueChange | undefined;

export interface ProductRules {
  /** The top-level key that marks the product's file, e.g. `Butler-SOS`. */
  readonly root: string;
  /** The product's name in messages, e.g. `Butler SOS`. */
  readonly product: string;
  readonly keyRules: ReadonlyMap<string, MigrationRule>;
  readonly valueRules: ReadonlyMap<string, ValueTransform>;
  /** Source path → what works differently, said when the source sets the key to `true`. */
  readonly behaviourNotes: ReadonlyMap<string, string>;
  /** The header's summary of the renames, a line each. */
  readonly headerNames: readonly string[];
  /** Rewrites the source before the walk (the product's mapping, still under its root key). */
  readonly prepare?: (doc: Document, source: YAMLMap) => MigrationNote[];
  /** Adjustments after the walk, across keys of the result (`Service`). */
  readonly finish: (doc: Document, service: YAMLMap) => MigrationNote[];
}

/**
 * `anonTelemetry: true` becomes false: the product sent telemetry to its vendor, Steward sends
 * it only to an endpoint the operator names, so consent to one is not consent to the other.
 */
export const anonTelemetryRule =
  (product: string): ValueTransform =>
  (value: unknown) =>
    value === true
      ? {
          value: false,
          note:
            `${product} sent telemetry to its vendor; Steward sends it only to an endpoint you name: ` +
            "set anonTelemetryEndpoint and anonTelemetry: true to opt in",
        }
      : undefined;
