import type { IncomingMessage } from "node:http";
import { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { closeLingeringWhenUnread } from "../../../../local/http/lingering-close.ts";

/** A connection whose own close only counts its calls, and the requests it carried. */
function connection() {
  const socket = new Socket() as Socket & { destroySoon(): void };
  let closes = 0;
  socket.destroySoon = () => {
    closes += 1;
  };
  const request = (complete: boolean) =>
    ({ socket, complete, destroyed: false }) as unknown as IncomingMessage;
  return { socket, request, closes: () => closes };
}

describe("lingering close", () => {
  it("closes a connection at once when its last request was read to its end, however many it carried", () => {
    const { socket, request, closes } = connection();
    for (let i = 0; i < 50_000; i++) closeLingeringWhenUnread(request(true));

    socket.destroySoon();

    expect(closes()).toBe(1);
  });

  it("looks only at the last request: an earlier one left unread does not make it linger", () => {
    const { socket, request, closes } = connection();
    closeLingeringWhenUnread(request(false));
    closeLingeringWhenUnread(request(true));

    socket.destroySoon();

    expect(closes()).toBe(1);
  });
});
