/**
 * The FIFO of datagrams waiting for a processing slot: a ring of parallel arrays (datagram,
 * sender, receive time, enqueue time), so that taking the oldest is O(1) — no `Array#shift` over a
 * large array — and a datagram costs no wrapper object. It starts small and doubles up to
 * `maxSize` (which the configuration does not bound), so an idle socket holds little memory.
 */
import type { UdpSender } from "./udp-sender.ts";

export interface WaitingItem {
  datagram: Uint8Array;
  sender: UdpSender;
  receivedAtMs: number;
  enqueuedAt: number;
}

export interface WaitingRing {
  readonly size: number;
  /** Adds at the tail; the caller checks `size < maxSize` first. */
  push(datagram: Uint8Array, sender: UdpSender, receivedAtMs: number, enqueuedAt: number): void;
  /** Removes the head into `into` (reused by the caller); false when empty. */
  shiftInto(into: WaitingItem): boolean;
}

const INITIAL_CAPACITY = 64;

export function createWaitingRing(maxSize: number): WaitingRing {
  let capacity = Math.min(INITIAL_CAPACITY, nextPowerOfTwo(maxSize));
  let datagrams: Array<Uint8Array | undefined> = new Array(capacity).fill(undefined);
  let senders: Array<UdpSender | undefined> = new Array(capacity).fill(undefined);
  let received = new Float64Array(capacity);
  let enqueued = new Float64Array(capacity);
  let head = 0;
  let size = 0;

  function grow(): void {
    const next = capacity * 2;
    const nextDatagrams: Array<Uint8Array | undefined> = new Array(next).fill(undefined);
    const nextSenders: Array<UdpSender | undefined> = new Array(next).fill(undefined);
    const nextReceived = new Float64Array(next);
    const nextEnqueued = new Float64Array(next);
    for (let i = 0; i < size; i += 1) {
      const from = (head + i) & (capacity - 1);
      nextDatagrams[i] = datagrams[from];
      nextSenders[i] = senders[from];
      nextReceived[i] = received[from] ?? 0;
      nextEnqueued[i] = enqueued[from] ?? 0;
    }
    datagrams = nextDatagrams;
    senders = nextSenders;
    received = nextReceived;
    enqueued = nextEnqueued;
    capacity = next;
    head = 0;
  }

  return {
    get size() {
      return size;
    },
    push(datagram, sender, receivedAtMs, enqueuedAt) {
      if (size === capacity) grow();
      const at = (head + size) & (capacity - 1);
      datagrams[at] = datagram;
      senders[at] = sender;
      received[at] = receivedAtMs;
      enqueued[at] = enqueuedAt;
      size += 1;
    },
    shiftInto(into) {
      if (size === 0) return false;
      const datagram = datagrams[head];
      const sender = senders[head];
      if (datagram === undefined || sender === undefined) return false;
      into.datagram = datagram;
      into.sender = sender;
      into.receivedAtMs = received[head] ?? 0;
      into.enqueuedAt = enqueued[head] ?? 0;
      // Let go of the bytes now: the ring may sit idle for a long time.
      datagrams[head] = undefined;
      senders[head] = undefined;
      head = (head + 1) & (capacity - 1);
      size -= 1;
      return true;
    },
  };
}

function nextPowerOfTwo(n: number): number {
  let power = 1;
  while (power < n) power *= 2;
  return power;
}
