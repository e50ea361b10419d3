import type { Operation } from './operation.js';

export type OperationMatch =
  | { readonly kind: 'found'; readonly operation: Operation; readonly pathParams: Readonly<Record<string, string>> }
  | { readonly kind: 'method-not-allowed'; readonly allowed: readonly string[] }
  | { readonly kind: 'not-found' };

/** (method, path relative to the base address) → the contract's operation. */
export type OperationFinder = (method: string, path: string) => OperationMatch;

interface Route {
  readonly segments: readonly (string | { readonly param: string })[];
  readonly literalCount: number;
  readonly byMethod: Map<string, Operation>;
}

const NOT_FOUND: OperationMatch = Object.freeze({ kind: 'not-found' });
const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * Built once per contract. Literal paths are a map lookup; templated ones are tried most-literal first, so
 * /pets/mine would beat /pets/{petId} (OpenAPI: concrete paths match before templated ones).
 */
export function createOperationFinder(operations: readonly Operation[]): OperationFinder {
  const literal = new Map<string, Map<string, Operation>>();
  const templated = new Map<string, Route>();
  for (const operation of operations) {
    if (!operation.path.includes('{')) {
      methodsFor(literal, operation.path).set(operation.method, operation);
      continue;
    }
    let route = templated.get(operation.path);
    if (!route) {
      const segments = operation.path
        .split('/')
        .slice(1)
        .map((s) => (/^\{[^}]+\}$/.test(s) ? { param: s.slice(1, -1) } : s));
      route = { segments, literalCount: segments.filter((s) => typeof s === 'string').length, byMethod: new Map() };
      templated.set(operation.path, route);
    }
    route.byMethod.set(operation.method, operation);
  }
  const routes = [...templated.values()].sort((a, b) => b.literalCount - a.literalCount);

  return (method, path) => {
    const exact = literal.get(path);
    if (exact) return pick(exact, method, NO_PARAMS);
    const parts = path.split('/').slice(1);
    for (const route of routes) {
      const params = matchRoute(route, parts);
      if (params) return pick(route.byMethod, method, params);
    }
    return NOT_FOUND;
  };
}

function methodsFor(map: Map<string, Map<string, Operation>>, path: string): Map<string, Operation> {
  const existing = map.get(path);
  if (existing) return existing;
  const methods = new Map<string, Operation>();
  map.set(path, methods);
  return methods;
}

function pick(byMethod: Map<string, Operation>, method: string, pathParams: Record<string, string>): OperationMatch {
  const operation = byMethod.get(method);
  if (operation) return { kind: 'found', operation, pathParams };
  return { kind: 'method-not-allowed', allowed: [...byMethod.keys()] };
}

function matchRoute(route: Route, parts: readonly string[]): Record<string, string> | undefined {
  if (parts.length !== route.segments.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const segment = route.segments[i];
    const part = parts[i] as string;
    if (typeof segment === 'string') {
      if (segment !== part) return undefined;
    } else {
      if (part === '') return undefined;
      params[segment?.param as string] = safeDecode(part);
    }
  }
  return params;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
