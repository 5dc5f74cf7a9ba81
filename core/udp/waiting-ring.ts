/**
 * The FIFO of datagrams waiting for a processing slot: a ring of parallel arrays (where the bytes
 * are, sender, receive time, enqueue time), so that taking the oldest is O(1) — no `Array#shift`
 * over a large array — and a datagram costs no wrapper object. It starts small and doubles up to
 * `maxSize` (which the configuration does not bound), so an idle socket holds little memory.
 *
 * A waiting datagram's bytes are copied into 64 KiB chunks (every UDP datagram fits one), and
 * each is handed over as a fresh copy: the Buffer node:dgram made for it is not kept. Kept, those
 * Buffers outlived the young generation while the queue was backed up and each cost about 1.5 KB
 * of peak RSS for its 400 bytes (measured: the same overload peaked 20–35 MB higher with 20,000
 * waiting than with 2,000) — their memory is returned only at V8's next full collection. A chunk
 * is reused once every datagram in it has been handed over; a few are kept for the next burst.
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
  /** Adds a copy at the tail; the caller checks `size < maxSize` first. */
  push(datagram: Uint8Array, sender: UdpSender, receivedAtMs: number, enqueuedAt: number): void;
  /** Removes the head into `into` (reused by the caller); false when empty. */
  shiftInto(into: WaitingItem): boolean;
}

const INITIAL_CAPACITY = 64;
/** Larger than any UDP payload (65,507 bytes), so a datagram never spans two chunks. */
const CHUNK_BYTES = 64 * 1024;
/** Empty chunks kept for the next burst (256 KiB); the others are let go. */
const SPARE_CHUNKS = 4;

interface Chunk {
  readonly bytes: Uint8Array;
  used: number;
  /** Datagrams copied in and not yet handed over. */
  waiting: number;
}

export function createWaitingRing(maxSize: number): WaitingRing {
  let capacity = Math.min(INITIAL_CAPACITY, nextPowerOfTwo(maxSize));
  let chunks: Array<Chunk | undefined> = new Array(capacity).fill(undefined);
  let starts = new Int32Array(capacity);
  let ends = new Int32Array(capacity);
  let senders: Array<UdpSender | undefined> = new Array(capacity).fill(undefined);
  let received = new Float64Array(capacity);
  let enqueued = new Float64Array(capacity);
  let head = 0;
  let size = 0;
  let tail: Chunk | undefined;
  const spare: Chunk[] = [];

  function grow(): void {
    const next = capacity * 2;
    const nextChunks: Array<Chunk | undefined> = new Array(next).fill(undefined);
    const nextStarts = new Int32Array(next);
    const nextEnds = new Int32Array(next);
    const nextSenders: Array<UdpSender | undefined> = new Array(next).fill(undefined);
    const nextReceived = new Float64Array(next);
    const nextEnqueued = new Float64Array(next);
    for (let i = 0; i < size; i += 1) {
      const from = (head + i) & (capacity - 1);
      nextChunks[i] = chunks[from];
      nextStarts[i] = starts[from] ?? 0;
      nextEnds[i] = ends[from] ?? 0;
      nextSenders[i] = senders[from];
      nextReceived[i] = received[from] ?? 0;
      nextEnqueued[i] = enqueued[from] ?? 0;
    }
    chunks = nextChunks;
    starts = nextStarts;
    ends = nextEnds;
    senders = nextSenders;
    received = nextReceived;
    enqueued = nextEnqueued;
    capacity = next;
    head = 0;
  }

  /** The chunk the next `length` bytes go into. */
  function chunkFor(length: number): Chunk {
    if (tail !== undefined && tail.bytes.length - tail.used >= length) return tail;
    if (length > CHUNK_BYTES) return { bytes: new Uint8Array(length), used: 0, waiting: 0 };
    // A full tail is released by its last datagram's handover, as any other chunk.
    tail = spare.pop() ?? { bytes: new Uint8Array(CHUNK_BYTES), used: 0, waiting: 0 };
    return tail;
  }

  /** Every datagram of the chunk is handed over: the tail starts over, another is kept or let go. */
  function release(chunk: Chunk): void {
    chunk.used = 0;
    if (chunk !== tail && chunk.bytes.length === CHUNK_BYTES && spare.length < SPARE_CHUNKS) {
      spare.push(chunk);
    }
  }

  return {
    get size() {
      return size;
    },
    push(datagram, sender, receivedAtMs, enqueuedAt) {
      if (size === capacity) grow();
      const at = (head + size) & (capacity - 1);
      const chunk = chunkFor(datagram.byteLength);
      chunk.bytes.set(datagram, chunk.used);
      chunks[at] = chunk;
      starts[at] = chunk.used;
      chunk.used += datagram.byteLength;
      ends[at] = chunk.used;
      chunk.waiting += 1;
      senders[at] = sender;
      received[at] = receivedAtMs;
      enqueued[at] = enqueuedAt;
      size += 1;
    },
    shiftInto(into) {
      if (size === 0) return false;
      const chunk = chunks[head];
      const sender = senders[head];
      if (chunk === undefined || sender === undefined) return false;
      into.datagram = chunk.bytes.slice(starts[head], ends[head]);
      into.sender = sender;
      into.receivedAtMs = received[head] ?? 0;
      into.enqueuedAt = enqueued[head] ?? 0;
      // Let go of the sender now: the ring may sit idle for a long time.
      chunks[head] = undefined;
      senders[head] = undefined;
      chunk.waiting -= 1;
      if (chunk.waiting === 0) release(chunk);
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
