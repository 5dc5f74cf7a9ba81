import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { brokenLinks, githubSlug, pageAnchors, relativeLinks } from "../../helpers/markdown-links.ts";
import { suiteScratchDirectory } from "../../helpers/suite-scratch-directory.ts";

const scratch = suiteScratchDirectory("markdown-links-");
const page = (...lines: string[]) => `${lines.join("\n")}\n`;

describe("githubSlug", () => {
  it("makes the anchors GitHub gives headings", () => {
    expect(githubSlug("Message broker (mqttConfig)")).toBe("message-broker-mqttconfig");
    expect(githubSlug("Platform integration: Qlik Sense Enterprise on Windows")).toBe(
      "platform-integration-qlik-sense-enterprise-on-windows",
    );
    expect(githubSlug("Management REST API (/v4)")).toBe("management-rest-api-v4");
    expect(githubSlug("InfluxDB: field names and types")).toBe("influxdb-field-names-and-types");
    expect(githubSlug("Development loop: `npx sst dev`")).toBe("development-loop-npx-sst-dev");
    expect(githubSlug("`steward_udp_messages_total` and `queue_size`")).toBe(
      "steward_udp_messages_total-and-queue_size",
    );
    expect(githubSlug("See [the API](api.md) — twice")).toBe("see-the-api--twice");
  });
});

describe("pageAnchors", () => {
  it("numbers repeated headings and ignores headings inside code blocks", () => {
    const anchors = pageAnchors(
      page(
        "# Page",
        "## What moved it",
        "```sh",
        "# a shell comment",
        "```",
        "## What moved it",
        '<a id="kept"></a>',
      ),
    );

    expect([...anchors].sort()).toEqual(["kept", "page", "what-moved-it", "what-moved-it-1"]);
  });
});

describe("relativeLinks", () => {
  it("finds inline and reference links, skipping schemes, code spans and code blocks", () => {
    const links = relativeLinks(
      page(
        'See [a](a.md), [b](docs/b.md#part "title") and [web](https://example.com).',
        "Not a link: `[x](x.md)`, nor this one that runs `over",
        "two lines [y](y.md)` of a paragraph.",
        "```md",
        "[z](z.md)",
        "```",
        "[ref]: c.md#top",
        "[mail](mailto:ops@example.com) and [here](#local)",
      ),
    );

    expect(links).toEqual([
      { line: 1, target: "a.md" },
      { line: 1, target: "docs/b.md#part" },
      { line: 7, target: "c.md#top" },
      { line: 8, target: "#local" },
    ]);
  });
});

describe("brokenLinks", () => {
  it("names each link to a missing file or heading, with its page and line", () => {
    // Prepare
    const root = scratch.fresh("site");
    mkdirSync(join(root, "docs"), { recursive: true });
    writeFileSync(join(root, "docs", "aws.md"), page("# AWS", "## Alarms and runbooks"));
    writeFileSync(
      join(root, "README.md"),
      page(
        "# Steward",
        "[ok](docs/aws.md#alarms-and-runbooks) [ok too](#steward) [folder](docs/)",
        "[gone](docs/missing.md) [renamed](docs/aws.md#runbooks)",
        "[here](#nowhere)",
      ),
    );

    // Act
    const broken = brokenLinks(root, ["README.md", "docs/aws.md"]);

    // Assess
    expect(broken).toEqual([
      "README.md:3: docs/missing.md (no file docs/missing.md)",
      "README.md:3: docs/aws.md#runbooks (no heading #runbooks in docs/aws.md)",
      "README.md:4: #nowhere (no heading #nowhere in README.md)",
    ]);
  });
});
