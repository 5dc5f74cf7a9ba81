/**
 * Microsoft Teams, the format of its messages for the chat destination (chat-destination.ts): a
 * message with one Adaptive Card attachment (schema 1.4, full width), the only shape a Power
 * Automate Workflows trigger posts to a channel — the legacy connector "MessageCard" is refused
 * there. A basic card holds a title, the facts of the alert, blocks after them (a log in
 * monospace) and buttons to its links; what each kind of alert puts there is in that kind's file
 * (task-chat.ts, licence-chat.ts). Every text made of data is escaped for the card's markdown
 * (chat-markup.ts): fact titles and values, log lines; the title comes rendered with its fields
 * escaped (chat-title.ts).
 */
import { normaliseLineEnds } from "./chat-log-text.ts";
import { escapeCardMarkdown } from "./chat-markup.ts";
import type { ChatFormat } from "./chat-messages.ts";

export const ADAPTIVE_CARD_CONTENT_TYPE = "application/vnd.microsoft.card.adaptive";

export interface TeamsMessage {
  readonly type: "message";
  readonly attachments: readonly {
    readonly contentType: typeof ADAPTIVE_CARD_CONTENT_TYPE;
    readonly contentUrl: null;
    readonly content: Readonly<Record<string, unknown>>;
  }[];
}

export function teamsMessage(card: Readonly<Record<string, unknown>>): TeamsMessage {
  return {
    type: "message",
    attachments: [{ contentType: ADAPTIVE_CARD_CONTENT_TYPE, contentUrl: null, content: card }],
  };
}

const fact = (title: string, value: string) => ({
  title: escapeCardMarkdown(title),
  value: value === "" ? "-" : escapeCardMarkdown(value),
});

/** Log lines as one monospace text block each: a card's text treats a single line end as a space. */
export function logBlock(title: string, text: string): unknown[] {
  if (text === "") return [];
  const lines = normaliseLineEnds(text).split("\n");
  return [
    { type: "TextBlock", text: title, weight: "Bolder", spacing: "Medium", wrap: true },
    {
      type: "Container",
      style: "emphasis",
      bleed: false,
      items: lines.map((line) => ({
        type: "TextBlock",
        // A blank line keeps its height; a line's `*`, `_` or `[` would otherwise be read as markdown.
        text: line === "" ? " " : escapeCardMarkdown(line),
        fontType: "Monospace",
        size: "Small",
        wrap: true,
        spacing: "None",
      })),
    },
  ];
}

/** The buttons of a card: one per configured link, none for a link that is not configured. */
function openUrls(links: readonly (readonly [string, string])[]): unknown[] {
  return links
    .filter(([, url]) => url !== "")
    .map(([title, url]) => ({ type: "Action.OpenUrl", title, url }));
}

/** What a basic card shows: every alert's card (reload tasks, the server licence) has this shape. */
export interface BasicCard {
  /** Card markdown: the rendered title, its fields already escaped. */
  readonly title: string;
  /** Red for a failure or an expired licence; amber otherwise. */
  readonly attention: boolean;
  /** Titles and values as plain text (escaped here). */
  readonly facts: readonly (readonly [string, string])[];
  /** Blocks after the facts (a log, what was not available). */
  readonly body?: readonly unknown[];
  /** Button titles and URLs; those without a URL are left out. */
  readonly links: readonly (readonly [string, string])[];
}

export function basicCard(card: BasicCard): TeamsMessage {
  return teamsMessage({
    type: "AdaptiveCard",
    $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
    version: "1.4",
    msteams: { width: "Full" },
    body: [
      {
        type: "TextBlock",
        text: card.title,
        size: "Large",
        weight: "Bolder",
        color: card.attention ? "Attention" : "Warning",
        wrap: true,
      },
      { type: "FactSet", facts: card.facts.map(([title, value]) => fact(title, value)) },
      ...(card.body ?? []),
    ],
    actions: openUrls(card.links),
  });
}

/**
 * A formatted template's parsed output as a Teams message: a whole message as is, or a bare
 * Adaptive Card wrapped in one. Anything else is refused with the reason.
 */
export function asTeamsMessage(value: unknown): TeamsMessage {
  const record = (x: unknown): x is Record<string, unknown> =>
    typeof x === "object" && x !== null && !Array.isArray(x);
  if (record(value) && value.type === "AdaptiveCard") return teamsMessage(value);
  if (
    !record(value) ||
    value.type !== "message" ||
    !Array.isArray(value.attachments) ||
    value.attachments.length === 0
  )
    throw new Error(
      'the template must render a {"type":"message","attachments":[...]} object or an AdaptiveCard',
    );
  for (const attachment of value.attachments)
    if (
      !record(attachment) ||
      attachment.contentType !== ADAPTIVE_CARD_CONTENT_TYPE ||
      !record(attachment.content)
    )
      throw new Error(
        `every attachment must be an Adaptive Card (contentType ${ADAPTIVE_CARD_CONTENT_TYPE})`,
      );
  return value as unknown as TeamsMessage;
}

/** Teams for the chat destination: card markdown escaped, the kind's basic card, or the operator's card. */
export const TEAMS: ChatFormat = {
  name: "teams",
  escape: escapeCardMarkdown,
  basic: (messages, fields, title, settings, alert) => messages.teams(fields, title, settings, alert),
  formatted: (parsed) => asTeamsMessage(parsed),
};
