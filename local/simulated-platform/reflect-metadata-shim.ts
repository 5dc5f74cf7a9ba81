/**
 * The three `Reflect` metadata functions that `tsyringe` (a dependency of `@peculiar/x509`) asks
 * for when it loads. It refuses to load without a "reflect polyfill"; the full `reflect-metadata`
 * package would be a second dependency and a process-wide polyfill for a command that only signs a
 * few certificates, and `@peculiar/x509` declares no constructor parameter types, so metadata
 * kept per object and property is all it needs. Installed only if nothing else provides it.
 */

type MetadataKey = unknown;
type PropertyKey = string | symbol | undefined;

const store = new WeakMap<object, Map<PropertyKey, Map<MetadataKey, unknown>>>();

function ownTable(
  target: object,
  property: PropertyKey,
  create: boolean,
): Map<MetadataKey, unknown> | undefined {
  let byProperty = store.get(target);
  if (byProperty === undefined) {
    if (!create) return undefined;
    byProperty = new Map();
    store.set(target, byProperty);
  }
  let table = byProperty.get(property);
  if (table === undefined && create) {
    table = new Map();
    byProperty.set(property, table);
  }
  return table;
}

function getOwnMetadata(key: MetadataKey, target: object, property?: PropertyKey): unknown {
  return ownTable(target, property, false)?.get(key);
}

function getMetadata(key: MetadataKey, target: object, property?: PropertyKey): unknown {
  // Like reflect-metadata: a class inherits the metadata of the class it extends.
  for (let at: object | null = target; at !== null; at = Object.getPrototypeOf(at)) {
    const table = ownTable(at, property, false);
    if (table?.has(key)) return table.get(key);
  }
  return undefined;
}

function defineMetadata(key: MetadataKey, value: unknown, target: object, property?: PropertyKey): void {
  ownTable(target, property, true)?.set(key, value);
}

/** Adds `getMetadata`, `getOwnMetadata` and `defineMetadata` to `Reflect` unless already there. */
export function installReflectMetadataShim(): void {
  const reflect = Reflect as unknown as Record<string, unknown>;
  if (typeof reflect.getMetadata === "function") return;
  for (const [name, fn] of Object.entries({ getMetadata, getOwnMetadata, defineMetadata })) {
    Object.defineProperty(reflect, name, { value: fn, writable: true, configurable: true });
  }
}
