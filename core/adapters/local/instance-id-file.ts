/**
 * The agent's instance id (CONTRACT §7, quirk 21): a random UUID generated once and kept in a
 * file under `./data/`, read back on every later start. Random, so two instances never share
 * one (the reference derived it from host facts, identical on every host without systemInfo).
 * A file that exists but holds no UUID is an error, never overwritten.
 */
import { randomUUID } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export class InstanceIdFileError extends Error {
  override name = "InstanceIdFileError";
}

export async function loadOrCreateInstanceId(file: string): Promise<string> {
  let text: string | undefined;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  if (text !== undefined) {
    const id = text.trim();
    if (!UUID.test(id))
      throw new InstanceIdFileError(`${file} does not hold an instance id; remove it to make a new one`);
    return id;
  }
  const id = randomUUID();
  await mkdir(dirname(file), { recursive: true });
  try {
    // "wx": two processes starting at once never overwrite each other's id.
    await writeFile(file, `${id}\n`, { flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return loadOrCreateInstanceId(file);
    throw error;
  }
  return id;
}
