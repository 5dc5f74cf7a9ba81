/**
 * The comment at the top of a converted configuration: what was converted from where, by which
 * version, how names changed, and every key that was left out with the reason, so the file
 * itself keeps the record after the command's output is gone.
 */
import type { MigrationOptions } from "./convert.ts";
import type { DroppedKey, ProductRules } from "./product-rules.ts";

/** The header lines (without `#`), followed by the source's own leading comment if it had one. */
export function renderHeader(
  options: MigrationOptions,
  rules: ProductRules,
  dropped: readonly DroppedKey[],
  sourceComment: string | null | undefined,
): string {
  const lines = [
    `Steward configuration converted by \`steward migrate-config\` (${options.convertedBy}) from the`,
    `${rules.product} configuration ${options.sourceName}.`,
    `Keys have Steward's names where ${rules.product} used product names:`,
    ...rules.headerNames.map((line) => `  ${line}`),
    `Values and comments are kept. Settings Steward has and ${rules.product} lacks take their defaults`,
    "(`npx steward init-config` lists them all). Check the file with `npx steward check-config FILE`.",
  ];
  if (dropped.length > 0) {
    lines.push("Left out, with no counterpart in Steward:");
    for (const key of dropped) lines.push(`  ${key.path}: ${key.reason}`);
  }
  const header = lines.map((line) => ` ${line}`).join("\n");
  return sourceComment === null || sourceComment === undefined || sourceComment === ""
    ? header
    : `${header}\n\n${sourceComment}`;
}
