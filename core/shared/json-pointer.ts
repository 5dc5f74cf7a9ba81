/**
 * RFC 6901 JSON pointers: of the member a valibot issue is about (the audit envelope's and
 * payloads' validation answers), and of where a request body nests too deeply (the HTTP edge).
 */

import type { BaseIssue } from "valibot";

/** Escapes one reference token: `~` → `~0`, `/` → `~1` (in that order, as RFC 6901 requires). */
export function escapePointerToken(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** The JSON pointer of the member an issue is about, e.g. `/source/kind`; `""` for the root. */
export function issuePointer(issue: BaseIssue<unknown>, prefix = ""): string {
  let pointer = prefix;
  for (const item of issue.path ?? []) {
    pointer += `/${escapePointerToken(String(item.key))}`;
  }
  return pointer;
}
