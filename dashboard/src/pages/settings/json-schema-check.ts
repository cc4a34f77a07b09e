const schemaTypes = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);

/**
 * A quick check in the editor, before the server's full JSON Schema compile:
 * the payload must be an object schema, property schemas objects with known
 * types, and `required` names must exist. Returns the problems found.
 */
export function checkPayloadSchema(text: string): { schema: Record<string, unknown> | null; problems: string[] } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { schema: null, problems: [`Not valid JSON: ${error instanceof Error ? error.message : 'parse error'}`] };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { schema: null, problems: ['The schema must be a JSON object.'] };
  const schema = value as Record<string, unknown>;
  const problems: string[] = [];
  if (schema['type'] !== 'object') problems.push('The payload schema must have "type": "object".');
  const properties = schema['properties'];
  if (properties !== undefined) {
    if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) problems.push('"properties" must be an object.');
    else {
      for (const [name, property] of Object.entries(properties as Record<string, unknown>)) {
        if (typeof property !== 'object' || property === null || Array.isArray(property)) {
          problems.push(`Property "${name}" must be a schema object.`);
          continue;
        }
        const type = (property as Record<string, unknown>)['type'];
        const types = Array.isArray(type) ? type : type === undefined ? [] : [type];
        for (const t of types) if (typeof t !== 'string' || !schemaTypes.has(t)) problems.push(`Property "${name}" has an unknown type ${JSON.stringify(t)}.`);
      }
    }
  }
  const required = schema['required'];
  if (required !== undefined) {
    if (!Array.isArray(required) || required.some((name) => typeof name !== 'string')) problems.push('"required" must be a list of property names.');
    else {
      const known = typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
      for (const name of required as string[]) if (!known.includes(name)) problems.push(`"required" names "${name}", which is not in "properties".`);
    }
  }
  return { schema, problems };
}
