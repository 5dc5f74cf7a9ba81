/**
 * Butler SOS configurations for the migrate-config tests, written from the complete Butler SOS
 * configuration tree: the sample the migration page points to (docs/examples/butler-sos.yaml, the
 * values Butler SOS's production template ships, placeholders included), the fixture with every
 * key (test/fixtures/butler-sos/complete.yaml), and a way to turn every feature of one on or off.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isScalar, parseDocument, visit } from "yaml";

const DIR = join(import.meta.dirname, "..", "fixtures", "butler-sos");

/** The handbook's sample: one file serves the migration page and the tests. */
export const BUTLER_SOS_SAMPLE_PATH = join(
  import.meta.dirname,
  "..",
  "..",
  "docs",
  "examples",
  "butler-sos.yaml",
);

/** `sample` (docs/examples/butler-sos.yaml) or `complete.yaml` (every key). */
export function butlerSosFixture(name: "sample" | "complete.yaml"): string {
  return readFileSync(name === "sample" ? BUTLER_SOS_SAMPLE_PATH : join(DIR, name), "utf8");
}

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
