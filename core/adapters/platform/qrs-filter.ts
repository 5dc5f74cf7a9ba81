/**
 * Builds repository (QRS) filter expressions. String literals are single-quoted and a quote
 * inside a value is doubled, as the repository's filter grammar expects (`My 'tag'` →
 * `'My ''tag'''`), so a value can never end the literal early.
 */

export function quoteQrsLiteral(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

export function filterById(id: string): string {
  return `id eq ${id}`;
}

export function filterByTag(tag: string): string {
  return `tags.name eq ${quoteQrsLiteral(tag)}`;
}

export function filterByCustomProperty(name: string, value: string): string {
  return `(customProperties.definition.name eq ${quoteQrsLiteral(name)}) and (customProperties.value eq ${quoteQrsLiteral(value)})`;
}
