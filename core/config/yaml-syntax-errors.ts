/**
 * YAML syntax errors as one line each, for check-config and migrate-config alike: where (line and
 * column) and what. The YAML library places an over-indented line's error at the key above it
 * ("Implicit keys need to be on a single line at line 2" for a fault in line 3), and reports the
 * same fault twice; the message then names the line that continues the value, and the duplicate
 * is left out.
 */
import type { YAMLError } from "yaml";

const OWN_POSITION = / at line \d+, column \d+:?$/;

export function describeYamlErrors(errors: readonly YAMLError[]): string[] {
  const runOn = errors.filter(continuesOnNextLine);
  const shown = errors.filter(
    (error) =>
      !(
        error.code === "BLOCK_AS_IMPLICIT_KEY" &&
        runOn.some((other) => other.pos[0] === error.pos[0] && other !== error)
      ),
  );
  return shown.map(describe);
}

/** A key whose value runs on into a later line: that line is indented further than it should be. */
function continuesOnNextLine(error: YAMLError): boolean {
  const [start, end] = error.linePos ?? [];
  return (
    error.code === "MULTILINE_IMPLICIT_KEY" &&
    start !== undefined &&
    end !== undefined &&
    end.line > start.line
  );
}

function describe(error: YAMLError): string {
  const start = error.linePos?.[0];
  const where = start === undefined ? "" : ` at line ${start.line}, column ${start.col}`;
  // With prettyErrors the first line ends in " at line L, column C:"; it is said our way above.
  const what = (error.message.split("\n")[0] ?? error.message).trim().replace(OWN_POSITION, "");
  const end = error.linePos?.[1];
  const hint =
    continuesOnNextLine(error) && start !== undefined && end !== undefined
      ? ` (line ${start.line + 1} continues the value of line ${start.line}: is it indented further than the keys beside it?)`
      : "";
  return `YAML syntax error${where}: ${what}${hint}`;
}
