/** Config problems: one line each, `Service.path.to.key: message`, always reported all at once. */

export interface ConfigProblem {
  /** Dotted path from the file root, e.g. `Service.auditEvents.port` or `Service.servers[0].host`. */
  readonly path: string;
  readonly message: string;
}

export type PathSegment = string | number;

/** `["Service","servers",0,"host"]` → `Service.servers[0].host`. */
export function formatPath(path: readonly PathSegment[]): string {
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else out += out === "" ? seg : `.${seg}`;
  }
  return out;
}

export function problem(path: readonly PathSegment[], message: string): ConfigProblem {
  return { path: formatPath(path), message };
}

/** Made when first needed (a valid config never sorts): its collation data costs a running process about 3 MB. */
let collator: Intl.Collator | undefined;

/** Sorted by path (numeric-aware, so `[2]` comes before `[10]`), then message. */
export function sortProblems(problems: readonly ConfigProblem[]): ConfigProblem[] {
  if (problems.length < 2) return [...problems];
  collator ??= new Intl.Collator("en", { numeric: true });
  const { compare } = collator;
  return [...problems].sort((a, b) => compare(a.path, b.path) || compare(a.message, b.message));
}

export function formatProblem(p: ConfigProblem): string {
  return `${p.path}: ${p.message}`;
}

export function formatProblems(problems: readonly ConfigProblem[]): string {
  return problems.map(formatProblem).join("\n");
}

/** Thrown by loadConfigFile; `problems` holds every problem found. */
export class ConfigError extends Error {
  readonly problems: readonly ConfigProblem[];

  constructor(problems: readonly ConfigProblem[], options?: ErrorOptions) {
    super(`invalid configuration:\n${formatProblems(problems)}`, options);
    this.name = "ConfigError";
    this.problems = problems;
  }
}
