/**
 * `npm run docs:config`: writes the configuration reference page from the schema. Run it after
 * changing a setting, its default or its documentation, and commit the page with the change.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { CONFIG_REFERENCE_PAGE, renderConfigReference } from "./config-reference.ts";

const file = join(import.meta.dirname, "..", CONFIG_REFERENCE_PAGE);
writeFileSync(file, renderConfigReference());
console.log(`wrote ${CONFIG_REFERENCE_PAGE}`);
