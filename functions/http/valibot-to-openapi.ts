/**
 * A small valibot → OpenAPI 3.0 Schema Object converter, enough for the schemas Steward writes:
 * objects (only strict ones closed), strings, numbers, booleans, picklists, literals,
 * arrays, unions, variants (oneOf with a discriminator), nullable and optional wrappers, and the pipe actions that have a JSON Schema
 * equivalent. `v.metadata({ format })` names a format a `check` implements. An unsupported
 * schema type throws, so the document can never silently drift from the validators.
 */

export type OpenApiSchema = { [key: string]: unknown };

/** The parts of a valibot schema or action this converter reads (valibot's public shape). */
interface SchemaNode {
  kind: string;
  type: string;
  entries?: Record<string, SchemaNode>;
  wrapped?: SchemaNode;
  item?: SchemaNode;
  options?: readonly unknown[];
  literal?: unknown;
  key?: string;
  pipe?: readonly SchemaNode[];
  requirement?: unknown;
  metadata?: Record<string, unknown>;
}

const OPTIONAL_TYPES = new Set(["optional", "exact_optional", "nullish"]);

function applyAction(target: OpenApiSchema, action: SchemaNode): void {
  const requirement = action.requirement;
  const isArray = target.type === "array";
  switch (action.type) {
    case "min_length":
      target[isArray ? "minItems" : "minLength"] = requirement;
      break;
    case "max_length":
      target[isArray ? "maxItems" : "maxLength"] = requirement;
      break;
    case "integer":
      target.type = "integer";
      break;
    case "min_value":
      target.minimum = requirement;
      break;
    case "max_value":
      target.maximum = requirement;
      break;
    case "gt_value":
      target.minimum = requirement;
      target.exclusiveMinimum = true;
      break;
    case "regex":
      if (requirement instanceof RegExp) target.pattern = requirement.source;
      break;
    case "metadata":
      Object.assign(target, action.metadata);
      break;
    // `check` has no schema equivalent; its format is given by a metadata action.
  }
}

function convertNode(node: SchemaNode): OpenApiSchema {
  let schema: OpenApiSchema;
  switch (node.type) {
    case "string":
    case "number":
    case "boolean":
      schema = { type: node.type };
      break;
    case "unknown":
    case "custom":
      // A custom check (e.g. "JSON object, not array") contributes nothing; a schema later in
      // its pipe describes the value.
      schema = {};
      break;
    case "picklist":
    case "literal": {
      const values = node.type === "literal" ? [node.literal] : [...(node.options ?? [])];
      const numeric = values.length > 0 && values.every((value) => typeof value === "number");
      const integer = numeric && values.every((value) => Number.isInteger(value));
      const boolean = values.length > 0 && values.every((value) => typeof value === "boolean");
      const type = integer ? "integer" : numeric ? "number" : boolean ? "boolean" : "string";
      schema = { type, enum: values };
      break;
    }
    case "variant":
      schema = {
        oneOf: (node.options ?? []).map((option) => convertNode(option as SchemaNode)),
        discriminator: { propertyName: node.key },
      };
      break;
    case "array":
      schema = { type: "array", items: node.item === undefined ? {} : convertNode(node.item) };
      break;
    case "union":
      schema = { anyOf: (node.options ?? []).map((option) => convertNode(option as SchemaNode)) };
      break;
    case "nullable":
      schema = { ...convertNode(node.wrapped as SchemaNode), nullable: true };
      break;
    case "optional":
    case "exact_optional":
      schema = convertNode(node.wrapped as SchemaNode);
      break;
    case "object":
    case "loose_object":
    case "strict_object": {
      const properties: Record<string, OpenApiSchema> = {};
      const required: string[] = [];
      for (const [name, entry] of Object.entries(node.entries ?? {})) {
        properties[name] = convertNode(entry);
        if (!OPTIONAL_TYPES.has(entry.type)) required.push(name);
      }
      schema = { type: "object", properties, additionalProperties: node.type !== "strict_object" };
      if (required.length > 0) schema.required = required;
      break;
    }
    default:
      throw new Error(`valibot schema type "${node.type}" has no OpenAPI conversion`);
  }
  for (const item of node.pipe?.slice(1) ?? []) {
    if (item.kind === "schema") Object.assign(schema, convertNode(item));
    else applyAction(schema, item);
  }
  return schema;
}

/** The OpenAPI 3.0 Schema Object describing what `schema` accepts. */
export function toOpenApiSchema(schema: object): OpenApiSchema {
  return convertNode(schema as SchemaNode);
}
