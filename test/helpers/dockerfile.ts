/**
 * A minimal Dockerfile reader for tests: joins `\` continuations, drops comments and parser
 * directives, and splits each instruction into its keyword, its `--flags` and its arguments
 * (the JSON form of RUN/CMD/ENTRYPOINT/HEALTHCHECK CMD read as JSON). Unknown keywords and
 * malformed JSON forms are errors, as they are for `docker build`.
 */

export interface Instruction {
  readonly keyword: string;
  readonly flags: Readonly<Record<string, string>>;
  /** Whitespace-separated words, or the JSON array of the exec form. */
  readonly args: readonly string[];
  readonly line: number;
}

export interface Stage {
  readonly from: string;
  readonly name: string | undefined;
  readonly instructions: readonly Instruction[];
}

const KEYWORDS = new Set([
  "ADD",
  "ARG",
  "CMD",
  "COPY",
  "ENTRYPOINT",
  "ENV",
  "EXPOSE",
  "FROM",
  "HEALTHCHECK",
  "LABEL",
  "MAINTAINER",
  "ONBUILD",
  "RUN",
  "SHELL",
  "STOPSIGNAL",
  "USER",
  "VOLUME",
  "WORKDIR",
]);

function execForm(text: string, line: number): string[] | undefined {
  if (!text.startsWith("[")) return undefined;
  const parsed: unknown = JSON.parse(text);
  if (!Array.isArray(parsed) || !parsed.every((item) => typeof item === "string")) {
    throw new Error(`line ${line}: the exec form must be a JSON array of strings`);
  }
  return parsed;
}

export function parseDockerfile(source: string): Instruction[] {
  const out: Instruction[] = [];
  const lines = source.split("\n");
  for (let i = 0; i < lines.length; i += 1) {
    const start = i + 1;
    let text = (lines[i] ?? "").trim();
    if (text === "" || text.startsWith("#")) continue;
    while (text.endsWith("\\")) {
      i += 1;
      const next = (lines[i] ?? "").trim();
      text = `${text.slice(0, -1).trimEnd()} ${next.startsWith("#") ? "" : next}`.trim();
    }
    const [word = "", ...restWords] = text.split(/\s+/);
    const keyword = word.toUpperCase();
    if (!KEYWORDS.has(keyword)) throw new Error(`line ${start}: unknown instruction ${word}`);
    let rest = text.slice(word.length).trim();
    const flags: Record<string, string> = {};
    while (rest.startsWith("--")) {
      const [flag = "", ...after] = rest.split(/\s+/);
      const [name = "", value = ""] = flag.slice(2).split("=");
      flags[name] = value;
      rest = after.join(" ");
    }
    void restWords;
    // HEALTHCHECK [flags] CMD <command>: the command may be in exec form too.
    const healthCmd = keyword === "HEALTHCHECK" && /^CMD\s/i.test(rest) ? rest.slice(3).trim() : undefined;
    const args =
      healthCmd === undefined
        ? (execForm(rest, start) ?? rest.split(/\s+/).filter((w) => w !== ""))
        : ["CMD", ...(execForm(healthCmd, start) ?? healthCmd.split(/\s+/))];
    out.push({ keyword, flags, args, line: start });
  }
  return out;
}

/** The stages, each from its FROM up to the next. */
export function stagesOf(instructions: readonly Instruction[]): Stage[] {
  const stages: { from: string; name: string | undefined; instructions: Instruction[] }[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === "FROM") {
      const [from = "", as, name] = instruction.args;
      stages.push({ from, name: as?.toUpperCase() === "AS" ? name : undefined, instructions: [] });
    } else {
      const stage = stages.at(-1);
      if (stage === undefined && instruction.keyword !== "ARG") {
        throw new Error(`line ${instruction.line}: ${instruction.keyword} before FROM`);
      }
      stage?.instructions.push(instruction);
    }
  }
  return stages;
}
