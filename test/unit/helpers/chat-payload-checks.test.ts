/** The Teams and Slack checks of the capture-server tests find what the services refuse. */
import { describe, expect, it } from "vitest";
import { slackMessageProblems, teamsMessageProblems } from "../../helpers/chat-payload-checks.ts";

const message = (content: unknown) => ({
  type: "message",
  attachments: [{ contentType: "application/vnd.microsoft.card.adaptive", content }],
});
const card = (body: unknown[], actions: unknown[] = []) =>
  message({ type: "AdaptiveCard", version: "1.4", body, actions });

describe("Teams message checks", () => {
  it("take a card message with known elements", () => {
    expect(teamsMessageProblems(card([{ type: "TextBlock", text: "hello" }]))).toEqual([]);
  });

  it("refuse a legacy MessageCard, an unknown element, a link without url and an oversized message", () => {
    expect(teamsMessageProblems({ "@type": "MessageCard", summary: "x" })).not.toEqual([]);
    expect(teamsMessageProblems(card([{ type: "Bogus" }])).join()).toContain("Bogus");
    expect(teamsMessageProblems(card([], [{ type: "Action.OpenUrl", title: "Open" }])).join()).toContain(
      "url",
    );
    expect(teamsMessageProblems(card([{ type: "TextBlock", text: "x".repeat(30_000) }]))).toContain(
      "message over 28 KB",
    );
  });
});

describe("Slack message checks", () => {
  it("take Block Kit within the limits", () => {
    expect(
      slackMessageProblems({ blocks: [{ type: "header", text: { type: "plain_text", text: "t" } }] }),
    ).toEqual([]);
  });

  it("refuse a long header, too many fields, a long text and a button without url", () => {
    const problems = slackMessageProblems({
      blocks: [
        { type: "header", text: { type: "plain_text", text: "h".repeat(151) } },
        { type: "section", fields: Array.from({ length: 11 }, () => ({ type: "mrkdwn", text: "f" })) },
        { type: "section", text: { type: "mrkdwn", text: "t".repeat(3001) } },
        {
          type: "actions",
          elements: [{ type: "button", text: { type: "plain_text", text: "Open" }, url: "" }],
        },
      ],
    });
    expect(problems).toHaveLength(4);
  });
});
