/** Static `{name, value}` tags from the destination config, as every destination applies them. */

export interface StaticTag {
  name: string;
  value: string;
}

/** Pairs with a non-empty name and value, as a plain object; null when there are none. */
export function staticTagsObject(tags: readonly StaticTag[]): Record<string, string> | null {
  const usable = tags.filter((tag) => tag.name !== "" && tag.value !== "");
  if (usable.length === 0) return null;
  return Object.fromEntries(usable.map((tag) => [String(tag.name), String(tag.value)]));
}
