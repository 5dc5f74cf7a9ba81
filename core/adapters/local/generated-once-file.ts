/**
 * A value generated once and kept in a file under the data directory, read back on every later
 * start (the instance id, the key that scrambles user names). Two processes starting at once
 * never overwrite each other's value (the file is created with "wx"; the loser reads the
 * winner's). A file that exists but does not hold a valid value is an error, never overwritten.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

export interface GeneratedOnceFile {
  /** True when the trimmed text of the file is a valid value. */
  valid(text: string): boolean;
  /** A new value, as text. */
  generate(): string;
  /** File mode of a new file (default 0o666 less the umask). */
  mode?: number;
  /** The error for a file that holds something else. */
  invalid(file: string): Error;
}

/** The file's trimmed text, creating the file with a generated value when it does not exist. */
export async function loadOrCreateFileValue(file: string, spec: GeneratedOnceFile): Promise<string> {
  let text: string | undefined;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  if (text !== undefined) {
    const value = text.trim();
    if (!spec.valid(value)) throw spec.invalid(file);
    return value;
  }
  const value = spec.generate();
  await mkdir(dirname(file), { recursive: true });
  try {
    await writeFile(file, `${value}\n`, {
      flag: "wx",
      ...(spec.mode === undefined ? {} : { mode: spec.mode }),
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return loadOrCreateFileValue(file, spec);
    throw error;
  }
  return value;
}
