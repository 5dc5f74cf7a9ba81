/**
 * Engine health as the 8 time-series points Butler SOS writes, one set per server per poll, all
 * with the server tags and the poll time: `sense_server` (`version`, `started`, `uptime`), `mem`
 * (`comitted` [sic — dashboards depend on it], `allocated`, `free`, MB), `apps` (counts, id lists,
 * name lists, `calls`, `selections`), `cpu` (`total`), `session`, `users`, `cache` and `saturated`.
 *
 * Field types are Butler SOS's per database version, because existing databases already hold
 * fields of those types and InfluxDB refuses a write that changes one: its 1.x schema makes the
 * `mem` fields and `cpu.total` integers (rounded here), 2.x writes both as floats, 3.x writes
 * `mem` as floats and `cpu.total` as an integer. 2.x writes `calls`, `selections`, `session.*`,
 * `users.*`, `cache.hits` and `cache.lookups` as unsigned integers (clamped at 0 here); every
 * other count is an integer on every version, and `saturated` a boolean.
 *
 * The id lists (`active_docs`, `loaded_docs`, `in_memory_docs`, comma-joined) are written when
 * their `includeFields` flag is on, else `''`; the name lists (health-app-lists.ts) when that flag
 * is on and app names are extracted (the cache is given), else `''`, joined `"A","B"` on v1 and
 * `A,B` on v2/v3 as Butler SOS. The version is chosen once, when the mapper is made.
 */
import type { TimeseriesdbConfig, TimeseriesdbVersion } from "../config/index.ts";
import type { AppNameCache, EngineHealth } from "../ports.ts";
import {
  booleanField,
  type FieldValue,
  floatField,
  integerField,
  type Point,
  stringField,
  unsignedField,
} from "../shared/line-protocol.ts";
import { engineUptime } from "./engine-uptime.ts";
import { appLists } from "./health-app-lists.ts";
import type { ServerTags } from "./server-tags.ts";

export interface HealthPointMapperOptions {
  readonly version: TimeseriesdbVersion;
  readonly includeFields: TimeseriesdbConfig["includeFields"];
  /** The app-name cache when `appNames.enableAppNameExtract` is on; undefined otherwise. */
  readonly appNames: AppNameCache | undefined;
}

/** The 8 points of one server's health check read at `timestampMs` (also the uptime's "now"). */
export type HealthPointMapper = (health: EngineHealth, tags: ServerTags, timestampMs: number) => Point[];

interface VersionFormat {
  readonly mem: (mb: number) => FieldValue;
  readonly cpu: (percent: number) => FieldValue;
  /** `calls`, `selections`, `session.*`, `users.*`, `cache.hits`, `cache.lookups`. */
  readonly tally: (value: number) => FieldValue;
  readonly joinNames: (names: readonly string[]) => string;
}

const count = (value: number): FieldValue => integerField(Math.round(value));
const unsigned = (value: number): FieldValue => unsignedField(Math.max(0, Math.round(value)));
const quoted = (names: readonly string[]): string => names.map((name) => `"${name}"`).join(",");
const plain = (names: readonly string[]): string => names.join(",");

const FORMATS: Readonly<Record<TimeseriesdbVersion, VersionFormat>> = {
  1: { mem: count, cpu: count, tally: count, joinNames: quoted },
  2: { mem: floatField, cpu: floatField, tally: unsigned, joinNames: plain },
  3: { mem: floatField, cpu: count, tally: count, joinNames: plain },
};

type DocList = "active_docs" | "loaded_docs" | "in_memory_docs";

export function createHealthPointMapper(options: HealthPointMapperOptions): HealthPointMapper {
  const format = FORMATS[options.version];
  const { includeFields, appNames } = options;
  const docLists: readonly (readonly [DocList, boolean])[] = [
    ["active_docs", includeFields.activeDocs],
    ["loaded_docs", includeFields.loadedDocs],
    ["in_memory_docs", includeFields.inMemoryDocs],
  ];
  const sessionNamesField = (list: DocList) => `${list.slice(0, -"_docs".length)}_session_docs_names`;

  function appsFields(apps: EngineHealth["apps"]): Record<string, FieldValue> {
    const fields: Record<string, FieldValue> = {
      active_docs_count: count(apps.active_docs.length),
      loaded_docs_count: count(apps.loaded_docs.length),
      in_memory_docs_count: count(apps.in_memory_docs.length),
    };
    for (const [list, included] of docLists) {
      const ids = apps[list];
      fields[list] = stringField(included ? ids.join(",") : "");
      const lists = included && appNames !== undefined ? appLists(ids, appNames) : undefined;
      fields[`${list}_names`] = stringField(lists === undefined ? "" : format.joinNames(lists.names));
      fields[sessionNamesField(list)] = stringField(
        lists === undefined ? "" : format.joinNames(lists.sessionApps),
      );
    }
    fields.calls = format.tally(apps.calls);
    fields.selections = format.tally(apps.selections);
    return fields;
  }

  return function toHealthPoints(health, tags, timestampMs) {
    const point = (measurement: string, fields: Record<string, FieldValue>): Point => ({
      measurement,
      tags,
      fields,
      timestampMs,
    });
    return [
      point("sense_server", {
        version: stringField(health.version),
        started: stringField(health.started),
        uptime: stringField(engineUptime(health.started, timestampMs)),
      }),
      point("mem", {
        comitted: format.mem(health.mem.committed),
        allocated: format.mem(health.mem.allocated),
        free: format.mem(health.mem.free),
      }),
      point("apps", appsFields(health.apps)),
      point("cpu", { total: format.cpu(health.cpu.total) }),
      point("session", {
        active: format.tally(health.session.active),
        total: format.tally(health.session.total),
      }),
      point("users", { active: format.tally(health.users.active), total: format.tally(health.users.total) }),
      point("cache", {
        hits: format.tally(health.cache.hits),
        lookups: format.tally(health.cache.lookups),
        added: count(health.cache.added),
        replaced: count(health.cache.replaced),
        bytes_added: count(health.cache.bytes_added),
      }),
      point("saturated", { saturated: booleanField(health.saturated) }),
    ];
  };
}
