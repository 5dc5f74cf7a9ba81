/**
 * The durable audit log's manifest, `<queue directory>/destinations.json`: the destinations the
 * log was written for (destination-selection.ts says how it is used). Replaced
 * atomically like the cursor files. Missing, it reads as undefined; unreadable (not the JSON this
 * file writes) as undefined too, with `unreadable` set so that the caller can say so: the rule for
 * a log without a manifest then applies, which can only deliver again, never skip.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { replaceFile } from "../replace-file.ts";

/** The manifest's path in `queueDirectory`. */
export const manifestFile = (queueDirectory: string) => join(queueDirectory, "destinations.json");

export interface ManifestRead {
  destinations: readonly string[] | undefined;
  /** The file is there but does not hold a manifest. */
  unreadable: boolean;
}

export async function readManifest(queueDirectory: string): Promise<ManifestRead> {
  let text: string;
  try {
    text = await readFile(manifestFile(queueDirectory), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      return { destinations: undefined, unreadable: false };
    return { destinations: undefined, unreadable: true };
  }
  try {
    const destinations = (JSON.parse(text) as { destinations?: unknown }).destinations;
    if (Array.isArray(destinations) && destinations.every((name) => typeof name === "string"))
      return { destinations, unreadable: false };
  } catch {
    // Falls through: not a manifest.
  }
  return { destinations: undefined, unreadable: true };
}

/** Writes the manifest beside its file and renames it into place; sync the directory afterwards. */
export async function writeManifest(queueDirectory: string, destinations: readonly string[]): Promise<void> {
  await replaceFile(manifestFile(queueDirectory), JSON.stringify({ destinations }));
}
