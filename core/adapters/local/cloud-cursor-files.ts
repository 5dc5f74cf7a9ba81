/**
 * The CloudCursorStore of the local runtime: one small file per tenant and polling input,
 * `<directory>/<tenant>.<input>.json` (tenant names are `[a-z0-9-]`, so the name is safe on every
 * system), holding `{tenant, input, readUpTo}`. Each write replaces the file atomically
 * (replace-file.ts: a crash leaves the old cursor or the new one, never a torn file) and syncs the
 * directory, so that a cursor written is one a restart reads; the directory and files are private
 * to Steward's user. A file that is missing or unreadable reads as no cursor: the input then reads
 * back as on a first start, and de-duplication keeps what it finds again from being handed on twice.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { CloudCursorStore } from "../../ports.ts";
import { makePrivateDirectory } from "./private-files.ts";
import { replaceFile } from "./replace-file.ts";
import { syncDirectory } from "./sync-directory.ts";

const fileOf = (directory: string, tenant: string, input: string) =>
  join(directory, `${tenant}.${input}.json`);

export async function openCloudCursorFiles(directory: string): Promise<CloudCursorStore> {
  await makePrivateDirectory(directory);
  return {
    async read(tenant, input) {
      let text: string;
      try {
        text = await readFile(fileOf(directory, tenant, input), "utf8");
      } catch {
        return undefined;
      }
      try {
        const readUpTo = (JSON.parse(text) as { readUpTo?: unknown }).readUpTo;
        const ms = typeof readUpTo === "string" ? Date.parse(readUpTo) : Number.NaN;
        return Number.isFinite(ms) ? ms : undefined;
      } catch {
        return undefined;
      }
    },
    async write(tenant, input, readUpToMs) {
      const text = JSON.stringify({ tenant, input, readUpTo: new Date(readUpToMs).toISOString() });
      await replaceFile(fileOf(directory, tenant, input), text);
      await syncDirectory(directory);
    },
  };
}
