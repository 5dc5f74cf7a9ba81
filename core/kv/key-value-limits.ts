/**
 * The limits of the key-value store, one rule for every adapter (the local file, DynamoDB):
 * keys per namespace (`maxKeysPerNamespace`, refused with 400, as Butler did), namespaces
 * (`maxNamespaces`) and the UTF-8 bytes of every live key and value together (`maxTotalBytes`),
 * both refused with 507 and the reason.
 *
 * Without the last two, a caller could add namespaces of 1000 keys of 256 KiB each until the
 * process ran out of its 1 GiB heap; the local store keeps everything in memory and reads it all
 * at start, so the process would then fail at every start too. The defaults keep the store well
 * inside that heap: 100 namespaces of at most 1000 keys is 100,000 entries (about 15 MB of the
 * store's own bookkeeping), and 32 MiB of keys and values is at most 64 MB as strings in memory,
 * and, while the snapshot is written or read at start, its text besides (about the bytes stored
 * for ordinary text; up to six times them for text made of control characters, which JSON writes
 * as `\u0001`). Measured 2026-12-06 on a store filled to both limits: docs/management-api.md.
 *
 * A store already over a limit (a file written before the limits, or limits lowered since) still
 * opens and answers reads, but refuses every write, so that nothing is lost and nothing grows;
 * deletes get it back under the limits, and then it takes writes again.
 */

export const DEFAULT_MAX_NAMESPACES = 100;
export const DEFAULT_MAX_TOTAL_BYTES = 32 * 1024 * 1024;

export interface KeyValueLimits {
  readonly maxKeysPerNamespace: number;
  readonly maxNamespaces: number;
  readonly maxTotalBytes: number;
}

/** What a store holds: its namespaces and the bytes of its live keys and values. */
export interface KeyValueUsage {
  readonly namespaces: number;
  readonly bytes: number;
}

const encoder = new TextEncoder();

/** The UTF-8 bytes an entry counts for: its key and its value. */
export function entryBytes(key: string, value: string): number {
  return encoder.encode(key).length + encoder.encode(value).length;
}

/** Which limits `usage` is over, in words; undefined when it is within them. */
export function overLimits(usage: KeyValueUsage, limits: KeyValueLimits): string | undefined {
  const over: string[] = [];
  if (usage.namespaces > limits.maxNamespaces)
    over.push(`${usage.namespaces} namespaces, keyValueStore.maxNamespaces is ${limits.maxNamespaces}`);
  if (usage.bytes > limits.maxTotalBytes)
    over.push(`${usage.bytes} bytes, keyValueStore.maxTotalBytes is ${limits.maxTotalBytes}`);
  return over.length === 0 ? undefined : over.join("; ");
}

/**
 * Why a write may not go, or undefined: a store over its limits takes none; otherwise a new
 * namespace must fit under `maxNamespaces`, and the bytes after the write under `maxTotalBytes`.
 */
export function writeRefusal(
  usage: KeyValueUsage,
  write: { readonly newNamespace: boolean; readonly bytesDelta: number },
  limits: KeyValueLimits,
): string | undefined {
  const over = overLimits(usage, limits);
  if (over !== undefined)
    return `The key-value store is over its limits (${over}): it takes no writes until keys or namespaces are deleted`;
  if (write.newNamespace && usage.namespaces >= limits.maxNamespaces)
    return `The key-value store already holds keyValueStore.maxNamespaces (${limits.maxNamespaces}) namespaces`;
  const after = usage.bytes + write.bytesDelta;
  if (after > limits.maxTotalBytes)
    return `The write would take the key-value store to ${after} bytes of keys and values, over keyValueStore.maxTotalBytes (${limits.maxTotalBytes})`;
  return undefined;
}
