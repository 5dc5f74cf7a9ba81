/**
 * Script log text for chat messages (Teams, Slack): line ends as `\n`, and cut to a size the
 * services accept — Slack refuses a text block over 3000 characters and Teams a card over about
 * 28 KB, and a long log line or a long tail would otherwise lose the whole message. The head
 * keeps its start, the tail its end, and the cut is marked so that nobody mistakes it for the log.
 */
import type { TaskTemplateFields } from "../task-fields.ts";

/** Characters of a head or tail kept: under Slack's 3000 with room for the marker and a code fence. */
export const CHAT_LOG_MAX_CHARS = 2800;

export const truncationMarker = (cut: number) => `[… ${cut} characters of the script log left out …]`;

export function normaliseLineEnds(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

/** The text cut to `max` characters keeping its start (`head`) or its end (`tail`), with the marker. */
export function cutLogText(text: string, keep: "head" | "tail", max = CHAT_LOG_MAX_CHARS): string {
  const normal = normaliseLineEnds(text);
  if (normal.length <= max) return normal;
  const cut = normal.length - max;
  return keep === "head"
    ? `${normal.slice(0, max)}\n${truncationMarker(cut)}`
    : `${truncationMarker(cut)}\n${normal.slice(-max)}`;
}

/** The template fields with the script log head, tail and execution details ready for a chat message. */
export function chatFields(fields: TaskTemplateFields): TaskTemplateFields {
  return {
    ...fields,
    scriptLogHead: cutLogText(fields.scriptLogHead, "head"),
    scriptLogTail: cutLogText(fields.scriptLogTail, "tail"),
    executionDetailsConcatenated: cutLogText(fields.executionDetailsConcatenated, "tail"),
  };
}
