/**
 * Encoding a table file's rows when some of them cannot be encoded (a text the format cannot
 * hold): the rows that fail on their own are found by halving — a half that encodes holds none
 * of them, a half that fails is halved again, down to single rows — and the others are encoded
 * together. It costs nothing while every row encodes (one encode, as before), and about
 * 2 × log2(rows) encodes per bad row otherwise.
 *
 * When no row fails on its own and the rows still fail together, the encoder's error is thrown:
 * not a fault of one event's data, it is left to the batcher's rule for errors that are neither
 * outages nor refusals (retrying-batch-write.ts).
 */

export interface UnencodableRow {
  /** The row's index in the rows given. */
  readonly index: number;
  /** What the encoder threw for the row alone. */
  readonly error: unknown;
}

export interface EncodedRows {
  /** The encoding of every row but the unencodable ones; undefined when none is left. */
  readonly bytes: Uint8Array | undefined;
  readonly unencodable: readonly UnencodableRow[];
}

export async function encodeRowsApart<R>(
  rows: readonly R[],
  encode: (rows: readonly R[]) => Promise<Uint8Array>,
): Promise<EncodedRows> {
  let firstError: unknown;
  try {
    return { bytes: await encode(rows), unencodable: [] };
  } catch (error) {
    firstError = error;
  }
  const unencodable: UnencodableRow[] = [];
  await findUnencodable(
    rows.map((_, index) => index),
    firstError,
    (indices) => encode(indices.map((index) => rows[index] as R)),
    unencodable,
  );
  const bad = new Set(unencodable.map((row) => row.index));
  const rest = rows.filter((_, index) => !bad.has(index));
  return { bytes: rest.length === 0 ? undefined : await encode(rest), unencodable };
}

/** Adds to `found` the rows among `indices` (which failed together with `error`) that fail alone. */
async function findUnencodable(
  indices: readonly number[],
  error: unknown,
  encode: (indices: readonly number[]) => Promise<Uint8Array>,
  found: UnencodableRow[],
): Promise<void> {
  const [only] = indices;
  if (indices.length === 1 && only !== undefined) {
    found.push({ index: only, error });
    return;
  }
  const middle = Math.ceil(indices.length / 2);
  for (const half of [indices.slice(0, middle), indices.slice(middle)]) {
    try {
      await encode(half);
    } catch (halfError) {
      await findUnencodable(half, halfError, encode, found);
    }
  }
}
