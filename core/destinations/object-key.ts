/** Validation of ObjectStore keys, shared by every adapter so they refuse the same keys. */

export class ObjectKeyError extends Error {
  override name = "ObjectKeyError";
}

/**
 * A key is a relative path of non-empty `/`-separated segments: no `.` or `..` segment, no
 * absolute path, no backslash (a separator on Windows), no NUL or other control character.
 * Returns the segments.
 */
export function validateObjectKey(key: string): string[] {
  if (key === "") throw new ObjectKeyError("object key is empty");
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse
  if (/[\u0000-\u001f\\]/.test(key))
    throw new ObjectKeyError(`object key ${JSON.stringify(key)} has a forbidden character`);
  if (key.startsWith("/")) throw new ObjectKeyError(`object key ${JSON.stringify(key)} is absolute`);
  const segments = key.split("/");
  if (segments.some((segment) => segment === "" || segment === "." || segment === "..")) {
    throw new ObjectKeyError(`object key ${JSON.stringify(key)} has an empty, "." or ".." segment`);
  }
  return segments;
}
