import { describe, expect, it } from "vitest";
import { cutLogText, truncationMarker } from "../../../../../core/alerts/chat/chat-log-text.ts";

describe("script log text for chat messages", () => {
  it("turns CRLF line ends into LF and keeps a short text whole", () => {
    expect(cutLogText("a\r\nb\rc", "tail")).toBe("a\nb\nc");
  });

  it("keeps the end of a tail and the start of a head, marking how much was left out", () => {
    const text = "0123456789";
    expect(cutLogText(text, "tail", 4)).toBe(`${truncationMarker(6)}\n6789`);
    expect(cutLogText(text, "head", 4)).toBe(`0123\n${truncationMarker(6)}`);
  });
});
