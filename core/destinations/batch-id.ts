/** Batch ids and flush stamps for file names that never collide, even between concurrent consumers. */
import { randomBytes } from "node:crypto";

/** 8 random hex characters: unique enough per flush second across concurrent consumers. */
export function newBatchId(): string {
  return randomBytes(4).toString("hex");
}

/** `20260308T164626181Z`: the flush time in UTC, sortable and safe in file names and S3 keys. */
export function flushStamp(at: Date): string {
  return at.toISOString().replace(/[-:.]/g, "");
}
