/**
 * The configuration as the config UI shows it: the tree as the file was written (`${ENV}`
 * references kept, never resolved: the tree is read before any substitution), with the command
 * line's overrides applied, masked by `obfuscateConfig` when `obfuscate` is on, and serialised once
 * as YAML. Pure: the file is read by the CLI.
 */
import { stringify } from "yaml";
import { obfuscateConfig } from "./obfuscate.ts";

export interface ConfigViewOptions {
  obfuscate: boolean;
  /** `--log-level`, shown as the running `Service.logLevel`. */
  logLevel?: string | undefined;
}

export interface ConfigView {
  /** The tree shown (masked when `obfuscate`). */
  tree: unknown;
  /** The same tree as YAML text (the page's lines and the download). */
  yaml: string;
}

const isMapping = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export function configView(rawTree: unknown, options: ConfigViewOptions): ConfigView {
  let tree: unknown = structuredClone(rawTree ?? {});
  if (options.logLevel !== undefined && isMapping(tree)) {
    const service = isMapping(tree.Service) ? tree.Service : {};
    tree = { ...tree, Service: { ...service, logLevel: options.logLevel } };
  }
  const shown = options.obfuscate ? obfuscateConfig(tree) : tree;
  return { tree: shown, yaml: stringify(shown, { lineWidth: 0, aliasDuplicateObjects: false }) };
}
