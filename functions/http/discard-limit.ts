/**
 * How much of a request body beyond its limit a listener still reads, and throws away, before it
 * answers 413: a client that is still sending then reads the answer, instead of a connection
 * reset (EPIPE) half-way through its upload. A body larger than its limit plus this bound gets the
 * 413 at once and its connection closed, so no client can make a listener read without end.
 */
export const DISCARD_LIMIT_BYTES = 16 * 1024 * 1024;
