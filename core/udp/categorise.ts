/**
 * Log event categorisation: rules are tried in configured order and every matching rule contributes
 * its categories; a rule applies when the event level is in its `logLevel` list (case-insensitive,
 * `fatal` included) and one of its filters matches the message (`sw` starts with, `ew` ends with,
 * `so` contains; case-sensitive). A matching `drop` rule discards the event (Butler SOS only
 * stripped its categories). When no rule matched, the default rule's categories apply if it is
 * enabled. Rules are compiled once.
 */

import type { CategoriseRule, LogEventsConfig } from "../config/index.ts";
import type { NameValue } from "../ports.ts";

export type Category = Readonly<NameValue>;

/** The categories of an event, or `"drop"` when a drop rule matched. */
export type Categorise = (level: string, message: string) => readonly Category[] | "drop";

interface CompiledRule {
  readonly levels: ReadonlySet<string>;
  readonly drop: boolean;
  readonly category: readonly Category[];
  readonly filters: readonly ((message: string) => boolean)[];
}

const NONE: readonly Category[] = Object.freeze([]);

export function createCategoriser(config: LogEventsConfig["categorise"]): Categorise {
  if (!config.enable) return () => NONE;
  const rules: CompiledRule[] = config.rules.map((rule) => ({
    levels: new Set(rule.logLevel.map((level) => level.toLowerCase())),
    drop: rule.action === "drop",
    category: Object.freeze(dedupe(rule.category)),
    filters: rule.filter.map(compileFilter),
  }));
  const fallback = config.ruleDefault.enable ? Object.freeze(dedupe(config.ruleDefault.category)) : NONE;

  return function categorise(level, message) {
    const lowerLevel = level.toLowerCase();
    let first: readonly Category[] | undefined;
    let merged: Category[] | undefined;
    for (const rule of rules) {
      if (!rule.levels.has(lowerLevel) || !rule.filters.some((matches) => matches(message))) continue;
      if (rule.drop) return "drop";
      // Most events match at most one rule: its precomputed list is returned without copying.
      if (first === undefined) first = rule.category;
      else merged = [...(merged ?? first), ...rule.category];
    }
    if (merged !== undefined) return dedupe(merged);
    return first ?? fallback;
  };
}

/** `sw` starts with, `ew` ends with, `so` contains; case-sensitive, as in Butler SOS. */
function compileFilter(filter: CategoriseRule["filter"][number]): (message: string) => boolean {
  const { value } = filter;
  if (filter.type === "sw") return (message) => message.startsWith(value);
  if (filter.type === "ew") return (message) => message.endsWith(value);
  return (message) => message.includes(value);
}

/** The categories without repeats of the same name and value, first occurrence kept. */
function dedupe(categories: readonly Category[]): Category[] {
  const out: Category[] = [];
  for (const category of categories) {
    if (!out.some((seen) => seen.name === category.name && seen.value === category.value)) out.push(category);
  }
  return out;
}

/** Every category name the configuration can produce (they become tags of `log_event`). */
export function categoryNames(config: LogEventsConfig["categorise"]): string[] {
  if (!config.enable) return [];
  const names = new Set<string>();
  for (const rule of config.rules) for (const category of rule.category) names.add(category.name);
  if (config.ruleDefault.enable) for (const category of config.ruleDefault.category) names.add(category.name);
  return [...names];
}
