/**
 * The operationId of an operation the contract gives none (OpenAPI makes it optional, and Spring Data REST and many
 * hand-written contracts leave it out): its method and path in camel case, `GET /orders/{id}` → `getOrdersById`,
 * `/api/snippets/` → `getApiSnippets`, with `_2`, `_3` after it where another operation has that name already.
 * Both tools, their reports and `--case` then name the operation by it.
 */
export function derivedOperationId(method: string, path: string, taken: ReadonlySet<string>): string {
  const words = path
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => {
      const parameter = /^\{([^{}]+)\}$/.exec(segment);
      return parameter ? `By${capitalised(parameter[1] as string)}` : capitalised(segment);
    });
  const name = `${method.toLowerCase()}${words.join('')}`;
  if (!taken.has(name)) return name;
  let n = 2;
  while (taken.has(`${name}_${n}`)) n++;
  return `${name}_${n}`;
}

// `order-items` → `OrderItems`, `{file}.json` → `FileJson`: letters and digits alone, each word's first letter upper case.
function capitalised(segment: string): string {
  return segment
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '')
    .map((word) => `${word[0]?.toUpperCase()}${word.slice(1)}`)
    .join('');
}
