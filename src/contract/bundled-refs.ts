import { contractSchema, type SchemaDialect } from './compile-schema.js';

/**
 * Prism's model of an operation writes a schema that refers to itself (a category whose children are categories,
 * a rule whose clauses hold rules, across files too) as a `$ref` to `#/__bundled__/<name>`, and keeps what each
 * names in the operation's `__bundled__`. The rest of its schemas are inlined, so this is the one place a loaded
 * schema still refers.
 */
export type Bundled = Readonly<Record<string, unknown>>;

const PREFIX = '#/__bundled__/';

type Raw = Record<string, unknown>;

const isObject = (value: unknown): value is Raw => value !== null && typeof value === 'object' && !Array.isArray(value);

const bundledRef = (value: unknown): string | undefined =>
  isObject(value) && typeof value.$ref === 'string' && value.$ref.startsWith(PREFIX) ? value.$ref : undefined;

// A JSON pointer's segments as RFC 6901 escapes them.
const segments = (ref: string): string[] =>
  ref
    .slice(PREFIX.length)
    .split('/')
    .map((segment) => decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~'));

function at(bundled: Bundled, ref: string): unknown {
  let value: unknown = bundled;
  for (const segment of segments(ref)) value = isObject(value) || Array.isArray(value) ? (value as Raw)[segment] : undefined;
  return value;
}

/**
 * The schema as a graph: each bundled `$ref` replaced by the schema it names, so that a recursive schema contains
 * itself. What reads a schema as values are generated or resources inferred (effectiveSchema) walks it with a map
 * of the nodes it has seen; a `$ref` that names nothing is left as it is.
 */
export function linkedSchema(schema: unknown, bundled: Bundled | undefined): unknown {
  if (bundled === undefined) return schema;
  const linked = new Map<string, unknown>();
  const link = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(link);
    if (!isObject(value)) return value;
    const ref = bundledRef(value);
    if (ref !== undefined) {
      const known = linked.get(ref);
      if (known !== undefined) return known;
      const target = at(bundled, ref);
      if (!isObject(target)) return value;
      // Registered before its insides are linked: the node a recursion comes back to is this one.
      const node: Raw = {};
      linked.set(ref, node);
      Object.assign(node, link(contractSchema(target)));
      return node;
    }
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, key === 'enum' ? item : link(item)]));
  };
  return link(schema);
}

/**
 * The schema as Ajv compiles it: each bundled `$ref` pointed at a definition of the schema itself (`definitions`
 * in draft 7, `$defs` in 2020-12), and the definitions it reaches, directly or through each other, attached. Ajv
 * follows a `$ref` as it validates, so a recursive schema validates a tree of any depth in one compiled function.
 * `each` is applied to the schema and to every definition alike (the direction a body travels in).
 */
export function selfContainedSchema(
  schema: unknown,
  bundled: Bundled | undefined,
  dialect: SchemaDialect,
  each: (schema: unknown) => unknown,
): unknown {
  const own = each(schema);
  if (bundled === undefined || !isObject(own)) return own;
  const keyword = dialect === '2020-12' ? '$defs' : 'definitions';
  const needed = new Set<string>();
  const pending = [schema];
  while (pending.length > 0) {
    eachBundledRef(pending.pop(), (ref) => {
      const name = segments(ref)[0] as string;
      if (needed.has(name)) return;
      needed.add(name);
      pending.push(bundled[name]);
    });
  }
  if (needed.size === 0) return own;
  const definitions = Object.fromEntries(
    [...needed].map((name) => {
      const { $schema: _, ...definition } = contractSchema(bundled[name]) as Raw;
      return [name, repoint(each(definition), keyword)];
    }),
  );
  return { ...(repoint(own, keyword) as Raw), [keyword]: definitions };
}

function eachBundledRef(value: unknown, visit: (ref: string) => void): void {
  if (Array.isArray(value)) for (const item of value) eachBundledRef(item, visit);
  else if (isObject(value)) {
    const ref = bundledRef(value);
    if (ref !== undefined) visit(ref);
    for (const [key, item] of Object.entries(value)) if (key !== 'enum') eachBundledRef(item, visit);
  }
}

function repoint(value: unknown, keyword: string): unknown {
  if (Array.isArray(value)) return value.map((item) => repoint(item, keyword));
  if (!isObject(value)) return value;
  const ref = bundledRef(value);
  const out = Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, key === 'enum' ? item : repoint(item, keyword)]),
  );
  if (ref !== undefined) out.$ref = `#/${keyword}/${ref.slice(PREFIX.length)}`;
  return out;
}
