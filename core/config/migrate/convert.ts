/**
 * Converts a Butler SOS configuration (top key `Butler-SOS`) or a Butler one (top key `Butler`)
 * into a Steward one (top key `Service`), pure: no file access. The top key says which product's
 * rules apply (./butler-sos-rules.ts, ./butler-rules.ts); one walk serves both (./walk.ts). The
 * YAML document is changed in place, key by key, so values keep their style and comments stay
 * beside their keys (aliases and merge keys are first expanded into copies:
 * ./expand-aliases.ts). What is left out, and every value that had to change, is returned with
 * the reason, never silently. Keys Steward has and the product lacks keep their defaults and are
 * not written, except where the product's rules add a switch and say why.
 */
import { type Document, isMap, isPair, type Pair, parseDocument, type YAMLMap } from "yaml";
import { serviceSchema } from "../schema/config.ts";
import type { AnySchema } from "../schema-walk.ts";
import { describeYamlErrors } from "../yaml-syntax-errors.ts";
import { BUTLER_RULES } from "./butler-rules.ts";
import { BUTLER_SOS_RULES } from "./butler-sos-rules.ts";
import { expandAliases } from "./expand-aliases.ts";
import { renderHeader } from "./header.ts";
import { keepOpenListeners } from "./open-listeners.ts";
import { placeMoves } from "./place-moves.ts";
import type { DroppedKey, MigrationNote, ProductRules } from "./product-rules.ts";
import { convertMap, keyName, type Walk } from "./walk.ts";

export type { DroppedKey, MigrationNote } from "./product-rules.ts";

/** The top-level key of a Butler SOS configuration. */
export const BUTLER_SOS_ROOT = BUTLER_SOS_RULES.root;

/** The products whose files convert, by top-level key. */
const PRODUCTS: readonly ProductRules[] = [BUTLER_SOS_RULES, BUTLER_RULES];

export type MigrationResult =
  | {
      ok: true;
      /** The product converted from, e.g. `Butler SOS`. */
      product: string;
      text: string;
      dropped: DroppedKey[];
      notes: MigrationNote[];
      renamed: number;
    }
  | { ok: false; message: string };

export interface MigrationOptions {
  /** Named in the header of the result, e.g. the file name given on the command line. */
  readonly sourceName: string;
  /** Steward's name and version, named in the header. */
  readonly convertedBy: string;
  /**
   * The schema that decides which keys are kept: Steward's own unless given (a test gives one
   * with sections that other versions of Steward have, to check the rules that lead there).
   */
  readonly schema?: AnySchema;
}

function findRoot(doc: Document): { pair: Pair; rules: ProductRules } | string {
  const root = doc.contents;
  if (!isMap(root)) return "the file is not a YAML mapping";
  for (const rules of PRODUCTS) {
    const pair = root.items.find((item) => isPair(item) && keyName(item) === rules.root);
    if (pair !== undefined) return { pair: pair as Pair, rules };
  }
  if (root.items.some((item) => isPair(item) && keyName(item) === "Service")) {
    return "the file is already a Steward configuration (top key Service); check it with steward check-config";
  }
  return `not a Butler SOS or Butler configuration: the top-level key ${BUTLER_SOS_ROOT} is missing, and so is Butler`;
}

function syntaxError(doc: Document): string | undefined {
  return describeYamlErrors(doc.errors)[0];
}

/** Converts Butler SOS or Butler YAML text; the result's text is a complete Steward configuration file. */
export function migrateConfigText(text: string, options: MigrationOptions): MigrationResult {
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true, merge: false });
  const error = syntaxError(doc);
  if (error !== undefined) return { ok: false, message: error };
  if (doc.contents === null) return { ok: false, message: "the file is empty" };
  const found = findRoot(doc);
  if (typeof found === "string") return { ok: false, message: found };
  const { pair, rules } = found;
  if (!isMap(pair.value)) return { ok: false, message: `${rules.root} must be a mapping` };
  expandAliases(doc);
  const walk: Walk = {
    rules,
    schema: options.schema ?? serviceSchema,
    dropped: [],
    notes: [],
    moves: [],
    renamed: 0,
  };
  const root = doc.contents as YAMLMap;
  for (const other of root.items) {
    if (other !== pair && isPair(other)) {
      walk.dropped.push({ path: String(keyName(other) ?? other.key), reason: `not under ${rules.root}` });
    }
  }
  root.items = [pair];
  const service = pair.value;
  walk.notes.push(...(rules.prepare?.(doc, service) ?? []));
  (pair.key as { value: unknown }).value = "Service";
  convertMap(service, [], [], walk);
  placeMoves(service, walk);
  walk.notes.push(...rules.finish(doc, service));
  walk.notes.push(...keepOpenListeners(doc, rules.product));
  doc.commentBefore = renderHeader(options, rules, walk.dropped, doc.commentBefore);
  return {
    ok: true,
    product: rules.product,
    text: doc.toString({ lineWidth: 0, flowCollectionPadding: false }),
    dropped: walk.dropped,
    notes: walk.notes,
    renamed: walk.renamed,
  };
}

/** The Butler SOS name of {@link migrateConfigText}, which converts Butler files as well. */
export const migrateButlerSosConfig = migrateConfigText;
