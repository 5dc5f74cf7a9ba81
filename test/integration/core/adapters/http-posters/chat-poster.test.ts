import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createChatPoster } from "../../../../../core/adapters/http-posters/chat-poster.ts";
import { FeatureDisabledError, UpstreamError } from "../../../../../core/upstream-error.ts";
import { type CaptureServer, startCaptureServer } from "../../../../helpers/capture-server.ts";

let server: CaptureServer;
beforeAll(async () => {
  server = await startCaptureServer();
});
afterAll(async () => {
  await server.stop();
});
beforeEach(() => {
  server.requests.length = 0;
  server.respondWith(200);
});

describe("chat poster (Slack-style incoming webhook)", () => {
  it("posts {channel, username, text, icon_emoji} as JSON to the webhook URL", async () => {
    const poster = createChatPoster({ webhookURL: `${server.url}/services/T000/B000/XXXX` });
    await poster.postMessage({
      channel: "#reload",
      from_user: "Steward",
      msg: "Hello *world*",
      emoji: ":thumbsup:",
    });
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/services/T000/B000/XXXX");
    expect(request?.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(JSON.parse(request?.body ?? "")).toEqual({
      channel: "#reload",
      username: "Steward",
      text: "Hello *world*",
      icon_emoji: ":thumbsup:",
    });
  });

  it("omits icon_emoji when no emoji is given", async () => {
    const poster = createChatPoster({ webhookURL: server.url });
    await poster.postMessage({ channel: "#c", from_user: "u", msg: "m" });
    expect(JSON.parse(server.requests[0]?.body ?? "")).toEqual({ channel: "#c", username: "u", text: "m" });
  });

  it("answers UpstreamError for a refused post or an unreachable webhook, without the URL", async () => {
    server.respondWith(404);
    const poster = createChatPoster({ webhookURL: `${server.url}/services/secret-token` });
    const failure = await poster
      .postMessage({ channel: "#c", from_user: "u", msg: "m" })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UpstreamError);
    expect((failure as Error).message).not.toContain("secret-token");
    await expect(
      createChatPoster({ webhookURL: "http://127.0.0.1:1/x" }).postMessage({
        channel: "#c",
        from_user: "u",
        msg: "m",
      }),
    ).rejects.toBeInstanceOf(UpstreamError);
  });

  it("answers FeatureDisabledError when no webhook URL is configured", async () => {
    await expect(
      createChatPoster({ webhookURL: "" }).postMessage({ channel: "#c", from_user: "u", msg: "m" }),
    ).rejects.toBeInstanceOf(FeatureDisabledError);
  });
});
