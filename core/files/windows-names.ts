/**
 * The file and directory names Windows refuses or reads as something else, as one pure rule: the
 * names Steward builds are checked against it on every OS (a test lists them all), and on Windows
 * the REST file API refuses a path with such a name in it (path-guard.ts).
 *
 * - `<>:"/\|?*` and control characters cannot be in a name. A `:` after a name is worse than
 *   refused: `file.txt:stream` (and `file.txt::$DATA`) names an alternate data stream, data hidden
 *   inside the file that directory listings do not show.
 * - A name ending in a dot or a space is silently cut by Windows (`report.txt.` opens
 *   `report.txt`), so the file acted on would not be the one named.
 * - The device names CON, PRN, AUX, NUL, COM0–COM9 and LPT0–LPT9 (also with ¹ ² ³ for the digit),
 *   in any case, alone or before an extension (`nul.txt`, `Com1.log`), open the device, not a file.
 * - At most 255 characters (NTFS's limit, as Linux's NAME_MAX).
 */

/** Windows' limit on one name, in UTF-16 code units. */
export const WINDOWS_MAX_NAME_LENGTH = 255;

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const REFUSED_CHARACTER = /[<>:"/\\|?*\u0000-\u001f]/;
const DEVICE_NAME = /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3])$/i;

/** Why Windows refuses `name` (one level of a path), or undefined when it takes it as it is. */
export function windowsNameProblem(name: string): string | undefined {
  if (name === "") return "is empty";
  if (name.length > WINDOWS_MAX_NAME_LENGTH) return `is longer than ${WINDOWS_MAX_NAME_LENGTH} characters`;
  const character = REFUSED_CHARACTER.exec(name)?.[0];
  if (character === ":") return "has a ':' (on Windows a name followed by ':' is an alternate data stream)";
  if (character !== undefined) return `has the character ${JSON.stringify(character)}, which Windows refuses`;
  if (/[. ]$/.test(name)) return "ends with a dot or a space, which Windows cuts off";
  if (DEVICE_NAME.test(deviceStem(name))) return "is a Windows device name (CON, NUL, COM1, LPT1, ...)";
  return undefined;
}

/** The part Windows compares with the device names: up to the first dot, trailing spaces cut. */
function deviceStem(name: string): string {
  const dot = name.indexOf(".");
  return (dot < 0 ? name : name.slice(0, dot)).replace(/ +$/, "");
}
