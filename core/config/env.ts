/** `${ENV_NAME}` references in string values, replaced from an injected environment. */

export type Env = Readonly<Record<string, string | undefined>>;

/** The process environment, or none where there is no `process` (edge runtimes). */
export function processEnv(): Env {
  return typeof process === "undefined" ? {} : process.env;
}

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export type SubstituteResult = { ok: true; value: string } | { ok: false; missing: string[] };

/** Replaces every `${NAME}`; reports the names that are not set (never their values). */
export function substituteEnv(text: string, env: Env): SubstituteResult {
  const missing: string[] = [];
  const value = text.replace(REFERENCE, (_match, name: string) => {
    const found = env[name];
    if (found === undefined) {
      missing.push(name);
      return "";
    }
    return found;
  });
  return missing.length > 0 ? { ok: false, missing: [...new Set(missing)] } : { ok: true, value };
}
