/**
 * The type check of infra/ (`npm run typecheck:infra`) against SST's real declarations refuses a
 * Lambda runtime or architecture that Steward's functions must not deploy with. Copies of infra/
 * with one wrong value each, and one unchanged, are checked by tsc with the settings of
 * tsconfig.infra.json in one run (SST's platform is read once for all copies: about 10 s).
 */
import { execFile } from "node:child_process";
import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { projectDir, skipWithoutSstPlatform } from "../../helpers/sst-platform.ts";
import { suiteScratchDirectory } from "../../helpers/suite-scratch-directory.ts";

const skip = await skipWithoutSstPlatform();

/** Each copy of infra/: its directory and the change made to infra/functions.ts. */
const copies = [
  { name: "unchanged", setting: "runtime", value: undefined },
  { name: "runtime-nodejs18", setting: "runtime", value: "nodejs18.x" },
  { name: "runtime-python", setting: "runtime", value: "python3.12" },
  { name: "architecture-x86", setting: "architecture", value: "x86" },
] as const;

/** infra/functions.ts with `setting` set to `value`; fails when the setting is not there once. */
function withSetting(source: string, setting: string, value: string): string {
  const pattern = new RegExp(`^(\\s*${setting}: )"[^"]*"`, "gm");
  const found = source.match(pattern)?.length ?? 0;
  if (found !== 1) throw new Error(`infra/functions.ts sets ${setting} ${found} times, expected once`);
  return source.replace(pattern, `$1"${value}"`);
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function runTsc(cwd: string): Promise<{ code: number; output: string }> {
  const tsc = join(projectDir, "node_modules", "typescript", "bin", "tsc");
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [tsc, "-p", "tsconfig.json", "--pretty", "false"],
      { cwd, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : (error.code as number), output: `${stdout}${stderr}` });
      },
    );
  });
}

describe.skipIf(skip)("type check of infra/ against SST's declarations", () => {
  const scratch = suiteScratchDirectory("steward-infra-type-check-");
  let code: number;
  let errors: string[];

  beforeAll(async () => {
    const functions = await readFile(join(projectDir, "infra", "functions.ts"), "utf8");
    for (const copy of copies) {
      const directory = join(scratch.root, copy.name);
      await cp(join(projectDir, "infra"), directory, { recursive: true });
      if (copy.value !== undefined) {
        await writeFile(join(directory, "functions.ts"), withSetting(functions, copy.setting, copy.value));
      }
    }
    // The project's settings and SST's generated globals; no build info, so nothing in .sst/ changes.
    const config = {
      extends: join(projectDir, "tsconfig.infra.json"),
      compilerOptions: { incremental: false, tsBuildInfoFile: null },
      files: [join(projectDir, ".sst", "platform", "config.d.ts")],
      include: copies.map((copy) => copy.name),
    };
    await writeFile(join(scratch.root, "tsconfig.json"), JSON.stringify(config, null, 2));
    const result = await runTsc(scratch.root);
    code = result.code;
    errors = result.output.split("\n").filter((line) => / error TS\d+: /.test(line));
  }, 180_000);

  const errorsIn = (name: string) => errors.filter((line) => line.startsWith(`${name}/`));

  it("reports nothing in the unchanged copy, and every error in a changed one", () => {
    expect(errorsIn("unchanged")).toEqual([]);
    expect(code).not.toBe(0);
    const changed = copies.filter((copy) => copy.value !== undefined).map((copy) => `${copy.name}/`);
    expect(errors.filter((line) => !changed.some((prefix) => line.startsWith(prefix)))).toEqual([]);
  });

  it.each(copies.filter((copy) => copy.value !== undefined))(
    "refuses $setting $value (copy $name)",
    ({ name, value }) => {
      expect(errorsIn(name)).toEqual(
        expect.arrayContaining([
          expect.stringMatching(
            new RegExp(
              `^${name}/functions\\.ts\\(\\d+,\\d+\\): error TS\\d+: Type '"${escaped(value)}"' is not assignable`,
            ),
          ),
        ]),
      );
    },
  );
});
