import { describe, expect, it } from "vitest";
import {
  escapeCardMarkdown,
  escapedFields,
  escapeMrkdwn,
} from "../../../../../core/alerts/chat/chat-markup.ts";
import {
  cardMarkupLeft,
  cardTextShown,
  slackControlSequences,
} from "../../../../helpers/chat-markup-reading.ts";

const HOSTILE = [
  "[Reset your password](https://sso-reset.example.net/0)",
  "*bold* **strong** _italic_",
  "back\\slash \\[not a link\\]",
  "- a list\n+ another\n* a third\n12. numbered\n3) too",
  "<!channel> <!here> <@U024BE7LH> <https://evil.example.net|click here> @here & co",
];

describe("card markdown escaping (Teams)", () => {
  it.each(HOSTILE)("leaves nothing that acts as markdown, and shows the text as written: %s", (text) => {
    const escaped = escapeCardMarkdown(text);
    expect(cardMarkupLeft(escaped)).toEqual([]);
    expect(cardTextShown(escaped)).toBe(text);
  });

  it("escapes a link's brackets, emphasis and list markers, and nothing the card shows as written", () => {
    expect(escapeCardMarkdown("[x](http://evil)")).toBe("\\[x\\](http://evil)");
    expect(escapeCardMarkdown("*bold* _it_")).toBe("\\*bold\\* \\_it\\_");
    expect(escapeCardMarkdown("- one\n2. two")).toBe("\\- one\n2\\. two");
    expect(escapeCardMarkdown("# title > quote ~strike~ `code` (x) 1.5 a-b <at>x</at> @here")).toBe(
      "# title > quote ~strike~ `code` (x) 1.5 a-b <at>x</at> @here",
    );
  });
});

describe("mrkdwn escaping (Slack)", () => {
  it.each(HOSTILE)("leaves no control sequence, links or mentions: %s", (text) => {
    expect(slackControlSequences(escapeMrkdwn(text))).toEqual([]);
  });

  it("writes &, < and > as entities and keeps what can only change emphasis", () => {
    expect(escapeMrkdwn("<!channel> & <http://evil|x> *bold* @here")).toBe(
      "&lt;!channel&gt; &amp; &lt;http://evil|x&gt; *bold* @here",
    );
  });
});

describe("escaped fields", () => {
  it("escapes every text, in lists and objects too, and keeps numbers and booleans", () => {
    const fields = { taskName: "*a*", tags: ["_b_"], owner: { name: "[c]" }, size: 3, published: true };
    expect(escapedFields(fields, escapeCardMarkdown)).toEqual({
      taskName: "\\*a\\*",
      tags: ["\\_b\\_"],
      owner: { name: "\\[c\\]" },
      size: 3,
      published: true,
    });
  });
});
