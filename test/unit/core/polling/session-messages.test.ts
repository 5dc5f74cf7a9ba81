import { describe, expect, it } from "vitest";
import { createSessionMessageMapper } from "../../../../core/polling/session-messages.ts";
import { SESSION_LIST } from "./polling-fixtures.ts";

describe("createSessionMessageMapper", () => {
  const toMessage = createSessionMessageMapper({ baseTopic: "qliksense/" });

  it("publishes the root proxy's sessions to …/usersession/", () => {
    expect(toMessage(SESSION_LIST, "sense1.example.com:4243", "/").topic).toBe(
      "qliksense/sense1.example.com/usersession/",
    );
  });

  it("publishes a prefixed proxy's sessions to …/usersession<prefix>", () => {
    expect(toMessage(SESSION_LIST, "sense1.example.com:4243", "/hdr").topic).toBe(
      "qliksense/sense1.example.com/usersession/hdr",
    );
    expect(toMessage(SESSION_LIST, "sense1.example.com:4243", "hdr").topic).toBe(
      "qliksense/sense1.example.com/usersession/hdr",
    );
  });

  it("sends the proxy's answer unfiltered, as 2-space JSON", () => {
    const message = toMessage(SESSION_LIST, "sense1.example.com:4243", "/");

    expect(message.payload).toBe(JSON.stringify(SESSION_LIST.raw, null, 2));
    expect(message.payload).toContain('\n  {\n    "UserDirectory": "LAB",\n    "UserId": "svc_monitor"');
  });

  it("adds the / a base topic lacks", () => {
    expect(createSessionMessageMapper({ baseTopic: "steward" })(SESSION_LIST, "[::1]:4243", "/").topic).toBe(
      "steward/::1/usersession/",
    );
  });

  it("sends [] for no sessions", () => {
    expect(toMessage({ sessions: [], raw: [] }, "h:4243", "/").payload).toBe("[]");
  });
});
