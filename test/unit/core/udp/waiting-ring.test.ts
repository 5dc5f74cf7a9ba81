import { describe, expect, it } from "vitest";
import { createWaitingRing, type WaitingItem } from "../../../../core/udp/waiting-ring.ts";

const sender = { address: "127.0.0.1", port: 1 };
const item = (): WaitingItem => ({ datagram: new Uint8Array(0), sender, receivedAtMs: 0, enqueuedAt: 0 });

describe("createWaitingRing", () => {
  it("returns datagrams first in, first out across wrap-around and growth", () => {
    const ring = createWaitingRing(1000);
    const out: number[] = [];
    const into = item();
    let next = 0;
    // Interleave pushes and shifts so the head wraps before the ring grows past 64.
    for (let round = 0; round < 50; round += 1) {
      for (let i = 0; i < 5; i += 1) {
        ring.push(Uint8Array.of(next % 256), sender, next, next + 0.5);
        next += 1;
      }
      for (let i = 0; i < 3 && ring.shiftInto(into); i += 1) out.push(into.receivedAtMs);
    }
    while (ring.shiftInto(into)) out.push(into.receivedAtMs);

    expect(out).toEqual(Array.from({ length: 250 }, (_, i) => i));
    expect(ring.size).toBe(0);
  });

  it("hands over each datagram with its sender, receive time and enqueue time", () => {
    const ring = createWaitingRing(10);
    const from = { address: "10.0.0.7", port: 4444 };
    const datagram = Uint8Array.of(1, 2, 3);
    ring.push(datagram, from, 1234, 99.5);
    const into = item();

    expect(ring.shiftInto(into)).toBe(true);
    expect(into).toEqual({ datagram, sender: from, receivedAtMs: 1234, enqueuedAt: 99.5 });
    expect(ring.shiftInto(into)).toBe(false);
  });
});

describe("createWaitingRing bytes", () => {
  it("hands over copies that later datagrams never overwrite, across chunks and after reuse", () => {
    const ring = createWaitingRing(100_000);
    const into = item();
    const datagram = (n: number, length: number) => new Uint8Array(length).fill(n % 251);
    const handed: Uint8Array[] = [];
    const expected: Uint8Array[] = [];
    let n = 0;
    // Bursts of ~1.2 MB (several 64 KiB chunks), drained in part, so chunks are reused.
    for (let round = 0; round < 6; round += 1) {
      for (let i = 0; i < 3000; i += 1, n += 1) {
        const bytes = datagram(n, n % 97 === 0 ? 65_507 - (n % 5) : 1 + (n % 600));
        expected.push(bytes);
        ring.push(bytes, sender, n, n);
      }
      for (let i = 0; i < 2500 && ring.shiftInto(into); i += 1) handed.push(into.datagram);
    }
    while (ring.shiftInto(into)) handed.push(into.datagram);

    expect(handed).toHaveLength(expected.length);
    const differing = handed.filter((bytes, i) => Buffer.compare(bytes, expected[i] as Uint8Array) !== 0);
    expect(differing).toHaveLength(0);
  });

  it("does not keep the caller's datagram: changing it after push changes nothing", () => {
    const ring = createWaitingRing(10);
    const datagram = Uint8Array.of(1, 2, 3);
    ring.push(datagram, sender, 1, 1);
    datagram.fill(9);
    const into = item();

    ring.shiftInto(into);

    expect([...into.datagram]).toEqual([1, 2, 3]);
  });
});
