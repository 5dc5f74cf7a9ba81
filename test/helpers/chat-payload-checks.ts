/**
 * The checks Teams (a Workflows trigger posting an Adaptive Card) and Slack (an incoming webhook
 * with Block Kit) apply to what they receive, as far as their documentation states them: the
 * required members and their types, the element types they know, and the length limits that make
 * them refuse a message. Each returns the problems found; [] is a message the service would take.
 */

import { createRequire } from "node:module";

type Json = Record<string, unknown>;

interface AdaptiveCardsLibrary {
  AdaptiveCard: new () => {
    parse(json: unknown, context: unknown): void;
    validateProperties(): { validationEvents: { message: string }[] };
  };
  SerializationContext: new () => { eventCount: number; getEventAt(i: number): { message: string } };
}

/** The Adaptive Cards renderer's own parser and validator (its package's browser build runs in Node). */
const adaptiveCards = createRequire(import.meta.url)(
  "adaptivecards/dist/adaptivecards.js",
) as AdaptiveCardsLibrary;

/** What the Adaptive Cards library reports parsing and validating a card: unknown elements, missing members. */
export function adaptiveCardLibraryProblems(card: unknown): string[] {
  const parsed = new adaptiveCards.AdaptiveCard();
  const context = new adaptiveCards.SerializationContext();
  parsed.parse(card, context);
  const events = Array.from({ length: context.eventCount }, (_, i) => context.getEventAt(i).message);
  return [...events, ...parsed.validateProperties().validationEvents.map((event) => event.message)];
}
const isRecord = (x: unknown): x is Json => typeof x === "object" && x !== null && !Array.isArray(x);
const isHttpUrl = (x: unknown) => typeof x === "string" && /^https?:\/\/\S+$/.test(x);

/** Teams refuses a card message of more than about 28 KB. */
export const TEAMS_MAX_BYTES = 28_000;
const CARD_ELEMENTS = new Set([
  "TextBlock",
  "FactSet",
  "Container",
  "ColumnSet",
  "Image",
  "ActionSet",
  "RichTextBlock",
]);

function cardElementProblems(element: unknown, at: string, problems: string[]): void {
  if (!isRecord(element) || typeof element.type !== "string" || !CARD_ELEMENTS.has(element.type)) {
    problems.push(`${at}: not a known card element`);
    return;
  }
  if (element.type === "TextBlock" && typeof element.text !== "string")
    problems.push(`${at}: TextBlock without text`);
  if (element.type === "FactSet") {
    const facts = element.facts;
    if (
      !Array.isArray(facts) ||
      facts.some((f) => !isRecord(f) || typeof f.title !== "string" || typeof f.value !== "string")
    )
      problems.push(`${at}: FactSet facts must be {title, value} texts`);
  }
  if (element.type === "Container") {
    if (!Array.isArray(element.items)) problems.push(`${at}: Container without items`);
    else
      for (const [i, item] of element.items.entries())
        cardElementProblems(item, `${at}.items[${i}]`, problems);
  }
}

export function teamsMessageProblems(body: unknown): string[] {
  const problems: string[] = [];
  if (Buffer.byteLength(JSON.stringify(body)) > TEAMS_MAX_BYTES) problems.push("message over 28 KB");
  if (!isRecord(body) || body.type !== "message") return [...problems, 'type must be "message"'];
  if (!Array.isArray(body.attachments) || body.attachments.length === 0)
    return [...problems, "attachments must be a non-empty array"];
  body.attachments.forEach((attachment, a) => {
    if (!isRecord(attachment) || attachment.contentType !== "application/vnd.microsoft.card.adaptive") {
      problems.push(`attachments[${a}]: not an Adaptive Card`);
      return;
    }
    const card = attachment.content;
    if (!isRecord(card) || card.type !== "AdaptiveCard") {
      problems.push(`attachments[${a}].content: not an AdaptiveCard`);
      return;
    }
    if (typeof card.version !== "string" || !/^1\.[0-5]$/.test(card.version))
      problems.push(`attachments[${a}]: version must be 1.0-1.5`);
    problems.push(...adaptiveCardLibraryProblems(card).map((message) => `attachments[${a}]: ${message}`));
    if (!Array.isArray(card.body)) problems.push(`attachments[${a}]: body must be an array`);
    else for (const [i, element] of card.body.entries()) cardElementProblems(element, `body[${i}]`, problems);
    for (const action of Array.isArray(card.actions) ? card.actions : [])
      if (
        !isRecord(action) ||
        action.type !== "Action.OpenUrl" ||
        typeof action.title !== "string" ||
        !isHttpUrl(action.url)
      )
        problems.push("actions: Action.OpenUrl needs a title and an http(s) url");
  });
  return problems;
}

const textObject = (x: unknown, max: number, types: string[]) =>
  isRecord(x) &&
  typeof x.type === "string" &&
  types.includes(x.type) &&
  typeof x.text === "string" &&
  x.text.length > 0 &&
  x.text.length <= max;

function slackBlockProblems(block: unknown, at: string): string[] {
  if (!isRecord(block)) return [`${at}: not an object`];
  switch (block.type) {
    case "header":
      return textObject(block.text, 150, ["plain_text"])
        ? []
        : [`${at}: header text must be plain_text of 1-150 characters`];
    case "divider":
      return [];
    case "section": {
      const problems: string[] = [];
      if (block.text === undefined && block.fields === undefined)
        problems.push(`${at}: section needs text or fields`);
      if (block.text !== undefined && !textObject(block.text, 3000, ["mrkdwn", "plain_text"]))
        problems.push(`${at}: section text must be 1-3000 characters`);
      if (
        block.fields !== undefined &&
        (!Array.isArray(block.fields) ||
          block.fields.length > 10 ||
          block.fields.some((f) => !textObject(f, 2000, ["mrkdwn", "plain_text"])))
      )
        problems.push(`${at}: section fields must be at most 10 texts of 1-2000 characters`);
      return problems;
    }
    case "actions": {
      const elements = block.elements;
      if (!Array.isArray(elements) || elements.length === 0 || elements.length > 25)
        return [`${at}: actions need 1-25 elements`];
      return elements.flatMap((element, i) =>
        isRecord(element) &&
        element.type === "button" &&
        textObject(element.text, 75, ["plain_text"]) &&
        isHttpUrl(element.url)
          ? []
          : [`${at}.elements[${i}]: a button needs plain_text of 1-75 characters and an http(s) url`],
      );
    }
    case "context":
      return Array.isArray(block.elements) && block.elements.length > 0 && block.elements.length <= 10
        ? []
        : [`${at}: context needs 1-10 elements`];
    default:
      return [`${at}: unknown block type ${String(block.type)}`];
  }
}

export function slackMessageProblems(body: unknown): string[] {
  if (!isRecord(body)) return ["not an object"];
  const problems: string[] = [];
  for (const key of ["username", "channel", "icon_emoji", "text"])
    if (body[key] !== undefined && typeof body[key] !== "string") problems.push(`${key} must be a string`);
  if (!Array.isArray(body.blocks) || body.blocks.length === 0 || body.blocks.length > 50)
    return [...problems, "blocks must hold 1-50 blocks"];
  for (const [i, block] of body.blocks.entries()) problems.push(...slackBlockProblems(block, `blocks[${i}]`));
  return problems;
}
