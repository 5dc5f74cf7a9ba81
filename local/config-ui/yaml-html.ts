/**
 * Server-side rendering of the config UI's two views of the configuration: YAML lines with
 * syntax classes (an ordered list, so the browser numbers the lines) and an expandable tree of
 * nested `<details>` (works without script). Every text is HTML-escaped.
 */

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

const span = (kind: string, text: string) =>
  text === "" ? "" : `<span class="${kind}">${escapeHtml(text)}</span>`;

/** The class of a scalar as YAML reads it. */
function scalarClass(text: string): string {
  const value = text.trim();
  if (value.startsWith("#")) return "c";
  if (/^(true|false)$/i.test(value)) return "b";
  if (/^(null|~)$/i.test(value)) return "n";
  if (/^[-+]?(\d[\d_]*)(\.\d+)?([eE][-+]?\d+)?$/.test(value)) return "num";
  return "s";
}

/** `indent`, an optional `- `, an optional `key:`, then the value. */
const LINE = /^(\s*)((?:- )*)(?:((?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"][^:#]*?)):(?=\s|$))?(.*)$/;

export function highlightYamlLine(line: string): string {
  const match = LINE.exec(line);
  if (match === null) return span("s", line);
  const [, indent = "", dashes = "", key, rest = ""] = match;
  const value = rest.trim();
  return (
    escapeHtml(indent) +
    span("p", dashes) +
    (key === undefined ? "" : `${span("k", key)}<span class="p">:</span>`) +
    escapeHtml(rest.slice(0, rest.length - rest.trimStart().length)) +
    (value === "" ? "" : span(scalarClass(value), value))
  );
}

/** The YAML text as `<li>` lines (the list element numbers them). */
export function yamlLines(yaml: string): string {
  const lines = yaml.endsWith("\n") ? yaml.slice(0, -1).split("\n") : yaml.split("\n");
  return lines.map((line) => `<li><code>${highlightYamlLine(line)}</code></li>`).join("\n");
}

function leaf(value: unknown): string {
  if (typeof value === "string") return span("s", JSON.stringify(value));
  if (value === null || value === undefined) return span("n", "null");
  if (typeof value === "boolean") return span("b", String(value));
  if (typeof value === "number") return span("num", String(value));
  return span("s", String(value));
}

/** The tree as nested `<details>`; the first `openDepth` levels start open. */
export function treeHtml(value: unknown, name = "Configuration", depth = 0, openDepth = 2): string {
  const isList = Array.isArray(value);
  if (typeof value !== "object" || value === null) {
    return `<div class="leaf">${span("k", name)}<span class="p">: </span>${leaf(value)}</div>`;
  }
  const entries: Array<[string, unknown]> = isList
    ? value.map((item, i) => [`[${i}]`, item])
    : Object.entries(value as Record<string, unknown>);
  const size = isList ? `[${entries.length}]` : `{${entries.length}}`;
  const children = entries.map(([key, child]) => treeHtml(child, key, depth + 1, openDepth)).join("");
  return (
    `<details${depth < openDepth ? " open" : ""}><summary>${span("k", name)} <span class="size">${size}</span></summary>` +
    `<div class="children">${children}</div></details>`
  );
}
