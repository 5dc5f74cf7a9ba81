/**
 * Renames and deletions that a file held open by another program refuses for a moment. On
 * Windows a virus scanner, the search indexer or a backup agent opens a file that was just written
 * or renamed, and while it holds the file a rename onto it, a rename of it or its deletion fails
 * with EPERM, EBUSY or EACCES. The hold passes, so the operation is tried again: 6 attempts, with
 * waits of 25, 50, 100, 200 and 400 ms between them (775 ms of waiting in all), then the last
 * refusal is reported with what was tried. The caller keeps what it was writing (a store keeps the
 * change unacknowledged, a destination keeps its batch), so a refusal that outlasts the retries
 * loses no write.
 *
 * Why these numbers: such holds last from milliseconds to a few hundred; doubling from 25 ms
 * catches a short one at once without spinning, and the whole stays under a second because a
 * write waiting here holds up an answer (a key-value PUT, an acknowledged audit event's cursor)
 * and because a refusal that does not pass (a read-only file, an access list that denies the
 * service account) should be reported within a second, not after the minute some libraries wait.
 *
 * Only on Windows: on Linux and other POSIX systems these codes mean permissions, an immutable file
 * or a mount point, which no other program's open handle causes and which waiting does not cure.
 */
import { setTimeout as sleep } from "node:timers/promises";

/** The waits between attempts, in ms. */
export const BUSY_FILE_DELAYS_MS: readonly number[] = [25, 50, 100, 200, 400];

/** The codes a file held open by another program gives a rename or a deletion on Windows. */
const BUSY_CODES: ReadonlySet<string> = new Set(["EPERM", "EBUSY", "EACCES"]);

export interface BusyFileRetry {
  /** `process.platform` by default: only Windows retries. */
  platform?: NodeJS.Platform;
  /** The waits between attempts (BUSY_FILE_DELAYS_MS by default). */
  delaysMs?: readonly number[];
}

/** Runs `operation`, trying it again while Windows says another program holds its file. */
export async function retryWhileBusy<T>(operation: () => Promise<T>, retry: BusyFileRetry = {}): Promise<T> {
  if ((retry.platform ?? process.platform) !== "win32") return operation();
  const delaysMs = retry.delaysMs ?? BUSY_FILE_DELAYS_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (!isBusy(error)) throw error;
      const delayMs = delaysMs[attempt];
      if (delayMs === undefined) throw stillBusy(error, attempt + 1, delaysMs);
      await sleep(delayMs);
    }
  }
}

function isBusy(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && BUSY_CODES.has((error as NodeJS.ErrnoException).code ?? "");
}

/** The last refusal, saying how long it lasted; code, system call and path kept for the callers. */
function stillBusy(error: NodeJS.ErrnoException, attempts: number, delaysMs: readonly number[]): Error {
  const waitedMs = delaysMs.reduce((sum, ms) => sum + ms, 0);
  return Object.assign(
    new Error(
      `${error.message} (still refused after ${attempts} attempts over ${waitedMs} ms: another program, ` +
        "such as a virus scanner, the search indexer or a backup agent, may hold the file open)",
      { cause: error },
    ),
    { code: error.code, errno: error.errno, syscall: error.syscall, path: error.path },
  );
}
