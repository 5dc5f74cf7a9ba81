/**
 * The agent's instance id: a random UUID generated once and kept in a file under `./data/`, read
 * back on every later start. Random, so two instances never share one (Butler SOS derived it from
 * host facts, identical on every host without systemInfo). A file that exists but holds no UUID is
 * an error, never overwritten.
 */
import { randomUUID } from "node:crypto";
import { loadOrCreateFileValue } from "./generated-once-file.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export class InstanceIdFileError extends Error {
  override name = "InstanceIdFileError";
}

export function loadOrCreateInstanceId(file: string): Promise<string> {
  return loadOrCreateFileValue(file, {
    valid: (text) => UUID.test(text),
    generate: () => randomUUID(),
    invalid: (path) =>
      new InstanceIdFileError(`${path} does not hold an instance id; remove it to make a new one`),
  });
}
