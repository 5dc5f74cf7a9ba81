/**
 * The Butler configuration of the migrate-config tests: a whole site's file in the structure of
 * Butler's configuration template (test/fixtures/butler/production.yaml), values of our own.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const BUTLER_FIXTURE_PATH = join(import.meta.dirname, "..", "fixtures", "butler", "production.yaml");

export const butlerFixture = (): string => readFileSync(BUTLER_FIXTURE_PATH, "utf8");
