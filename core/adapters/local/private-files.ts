/**
 * The modes of what Steward creates to hold user data: the key-value store and its write-ahead
 * log, the schedule store, the durable audit queue (its segments hold user ids and client IPs,
 * its cursors and manifest beside them), crash dumps and the kept script logs of failed reloads
 * (what load scripts print: connection names, paths, sometimes data). Files are 0600 and a
 * directory Steward creates for such files alone (the queue directory, its cursors, the script
 * logs' directory and date folders) 0700: readable by Steward's own user only, whatever the umask,
 * so another local account cannot read what users did.
 *
 * Not private, on purpose:
 * - the audit exports (Parquet, table files, JSON): Qlik apps and other tools running as other
 *   accounts read them; they keep the umask, and their directories are the operator's to
 *   protect;
 * - directories the operator names that other files share (a store file's directory, by default
 *   `./data`, which the default exports sit under): they keep the umask, so the exports in them
 *   stay readable; the store files in them are 0600 all the same;
 * - log files, which log collectors running as other accounts read (secrets in them are masked).
 *
 * The mode applies when a file or directory is created; one made by an earlier version keeps its
 * mode until it is replaced (docs/running-on-prem.md says how to tighten it once). On Windows, modes
 * are ignored (Node's chmod only sets or clears the read-only flag): the files inherit the access
 * control list of the directory they are created in, so install Steward, and keep `./data`, in a
 * directory only its service account and administrators can read.
 */
import { dirname } from "node:path";
import { makeDirectory } from "./make-directory.ts";

export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIRECTORY_MODE = 0o700;

/**
 * Creates `path` readable by Steward's user only, its missing parents as makeDirectory does with
 * the usual mode (they may be shared, like `./data`). An existing directory keeps its mode.
 */
export async function makePrivateDirectory(path: string): Promise<void> {
  await makeDirectory(dirname(path));
  await makeDirectory(path, PRIVATE_DIRECTORY_MODE);
}
