/**
 * The Butler configuration of the migrate-config tests: a whole site's file in the structure of
 * Butler's configuration template, values of our own. It is the sample the migration page points
 * to (docs/examples/butler.yaml), so the page's file and the tests' are one.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const BUTLER_FIXTURE_PATH = join(import.meta.dirname, "..", "..", "docs", "examples", "butler.yaml");

export const butlerFixture = (): string => readFileSync(BUTLER_FIXTURE_PATH, "utf8");
