/**
 * Butler SOS configurations for the migrate-config tests: the fixtures written from the
 * complete Butler SOS configuration tree (test/fixtures/butler-sos/), and a way to turn every
 * feature of one on or off.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isScalar, parseDocument, visit } from "yaml";

const DIR = join(import.meta.dirname, "..", "fixtures", "butler-sos");

/** `production-template.yaml` (the shipped values, placeholders included) or `complete.yaml`. */
export function butlerSosFixture(name: "production-template.yaml" | "complete.yaml"): string {
  return readFileSync(join(DIR, name), "utf8");
}

export const butlerSosFixturePath = (name: string) => join(DIR, name);

/** The switches of Butler SOS's sections (anonTelemetry needs systemInfo, so it goes with them). */
const SWITCHES = new Set(["enable", "enableAppNameExtract", "enableSessionExtract", "anonTelemetry"]);

/** The YAML text with every section's switch (every `enable`, at any depth) set to `on`. */
export function withEverySwitch(text: string, on: boolean): string {
  const doc = parseDocument(text);
  visit(doc, {
    Pair(_key, pair) {
      if (isScalar(pair.key) && SWITCHES.has(String(pair.key.value)) && isScalar(pair.value)) {
        pair.value.value = on;
      }
    },
  });
  return doc.toString();
}
