/**
 * The AWS SDK commands a Lambda handler's code can send, read from its code as esbuild bundles it
 * (imports followed, static and dynamic; unused exports shaken out; packages left external, since
 * only the repository's code decides which commands are sent): every `new <Name>Command(` whose
 * `<Name>Command` comes from an `@aws-sdk/client-*` package, with the file it is written in (the
 * `// <file>` line esbuild puts before each module's code). A command in an export the handler
 * never uses is not counted; one in a method of an object the handler builds is, since it could
 * be called. An SDK client package imported dynamically is reported as an error, not missed.
 */
import { build } from "esbuild";

export interface SdkCommand {
  /** The file that creates the command, relative to the repository. */
  file: string;
  /** The client package's service: `dynamodb` for `@aws-sdk/client-dynamodb`. */
  service: string;
  /** The command without its suffix: `UpdateItem` for `UpdateItemCommand`. */
  command: string;
}

export interface ReachedCode {
  /** The repository's files the entry reaches, relative to the repository. */
  files: string[];
  commands: SdkCommand[];
}

const NAMED_IMPORT = /import\s*\{([^}]*)\}\s*from\s*["']@aws-sdk\/client-([\w-]+)["']/g;
const DYNAMIC_IMPORT = /import\(\s*["']@aws-sdk\/client-/;
const NEW_INSTANCE = /\bnew\s+(\w+)\s*\(/g;
const MODULE_START = /^\/\/ (\S+)$/;

/** Local name → [service, imported name] of each value imported from an SDK client package. */
function sdkImports(code: string): Map<string, [string, string]> {
  const names = new Map<string, [string, string]>();
  for (const [, list = "", service = ""] of code.matchAll(NAMED_IMPORT)) {
    for (const entry of list.split(",")) {
      const [imported = "", local = imported] = entry.trim().split(/\s+as\s+/);
      if (imported !== "") names.set(local, [service, imported]);
    }
  }
  return names;
}

/** What `entry` (relative to `root`) reaches, and the SDK commands its code creates. */
export async function reachedFrom(entry: string, root: string): Promise<ReachedCode> {
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: root,
    bundle: true,
    write: false,
    metafile: true,
    packages: "external",
    platform: "node",
    format: "esm",
    logLevel: "silent",
  });
  const code = result.outputFiles[0]?.text ?? "";
  if (DYNAMIC_IMPORT.test(code)) throw new Error(`${entry} reaches a dynamic import of an AWS SDK client`);
  const imported = sdkImports(code);
  const commands: SdkCommand[] = [];
  let file = entry;
  for (const line of code.split("\n")) {
    file = MODULE_START.exec(line)?.[1] ?? file;
    for (const [, local = ""] of line.matchAll(NEW_INSTANCE)) {
      const [service, name] = imported.get(local) ?? [];
      if (service !== undefined && name?.endsWith("Command")) {
        commands.push({ file, service, command: name.slice(0, -"Command".length) });
      }
    }
  }
  const files = Object.keys(result.metafile.inputs).filter((input) => !input.includes("node_modules/"));
  return { files, commands };
}
