/**
 * The Microsoft Teams message of an alert: a message with one Adaptive Card attachment (schema
 * 1.4, full width), the only shape a Power Automate Workflows trigger posts to a channel — the
 * legacy connector "MessageCard" is refused there. The card holds a title, the facts (task, app,
 * node, status, times, duration), the end of the script log in monospace, and buttons to the
 * management console, the hub and the app.
 */
import type { TemplateFields } from "../task-events/template-fields.ts";
import { normaliseLineEnds } from "./chat-log-text.ts";

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

const fact = (title: string, value: string) => ({ title, value: value === "" ? "-" : value });

/** Log lines as one monospace text block each: a card's text treats a single line end as a space. */
function logBlock(title: string, text: string): unknown[] {
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
        // A blank line keeps its height; markdown would otherwise read `*`, `_` and `#` in log lines.
        text: line === "" ? " " : line,
        fontType: "Monospace",
        size: "Small",
        wrap: true,
        spacing: "None",
      })),
    },
  ];
}

function openUrls(fields: TemplateFields): unknown[] {
  const links: [string, string][] = [
    ["Open QMC", fields.qlikSenseQMC],
    ["Open Hub", fields.qlikSenseHub],
    ["Open app", fields.appUrl],
  ];
  return links
    .filter(([, url]) => url !== "")
    .map(([title, url]) => ({ type: "Action.OpenUrl", title, url }));
}

/** The basic card: `title` is the rendered `basicMsgTemplate`; `failure` colours it red, else amber. */
export function basicTeamsCard(fields: TemplateFields, title: string, failure: boolean): TeamsMessage {
  const { hours, minutes, seconds } = fields.executionDuration;
  const unavailable = Object.entries(fields.unavailable);
  return teamsMessage({
    type: "AdaptiveCard",
    $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
    version: "1.4",
    msteams: { width: "Full" },
    body: [
      {
        type: "TextBlock",
        text: title,
        size: "Large",
        weight: "Bolder",
        color: failure ? "Attention" : "Warning",
        wrap: true,
      },
      {
        type: "FactSet",
        facts: [
          fact("Task", fields.taskName),
          fact("App", fields.appName),
          fact("Status", fields.executionStatusText),
          fact("Node", fields.executingNodeName),
          fact(`Started (${fields.localTimeZone})`, fields.executionStartTime.startTimeLocal1 ?? "-"),
          fact(`Ended (${fields.localTimeZone})`, fields.executionStopTime.stopTimeLocal1 ?? "-"),
          fact("Duration", `${hours} h ${minutes} min ${seconds} s`),
          fact("Execution id", fields.executionId),
        ],
      },
      ...logBlock("End of the script log", fields.scriptLogTail),
      ...(unavailable.length === 0
        ? []
        : [
            {
              type: "TextBlock",
              text: `Not available: ${unavailable.map(([part, reason]) => `${part} (${reason})`).join("; ")}`,
              isSubtle: true,
              wrap: true,
              size: "Small",
            },
          ]),
    ],
    actions: openUrls(fields),
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
