import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { loadContract } from './load-contract.js';

async function contractFile(text: string): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'contract-')), 'openapi.yaml');
  await writeFile(file, text);
  return file;
}

const HEAD = 'openapi: 3.0.3\ninfo: {title: T, version: "1"}\n';

describe('loadContract', () => {
  it('refuses a file that is not OpenAPI 3.x, naming it', async () => {
    for (const text of ['foo: bar\n', 'swagger: "2.0"\n', '- a list\n']) {
      const file = await contractFile(text);
      await expect(loadContract(file)).rejects.toThrow(`Failed to load ${file}: not an OpenAPI 3.x document`);
    }
  });

  it('names the line and column of a YAML error, and the file of a missing one', async () => {
    const file = await contractFile(`${HEAD}paths: {\n`);
    await expect(loadContract(file)).rejects.toThrow(new RegExp(`Failed to read ${file}: line \\d+, column \\d+: `));
    await expect(loadContract(join(tmpdir(), 'no-such-contract.yaml'))).rejects.toThrow(/no-such-contract\.yaml: ENOENT/);
  });

  it('says what is invalid in an OpenAPI document, with its file name rather than [object Object]', async () => {
    const file = await contractFile(
      `${HEAD}paths:\n  /a:\n    get:\n      responses: {"200": {$ref: "#/components/responses/Nope"}}\n`,
    );
    const error = await loadContract(file).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toContain(`Failed to load ${file}: `);
    expect(error?.message).not.toContain('[object Object]');
    expect(error).toMatchObject({ code: 'contract_invalid' });
  });

  it('names an operation the contract gives no operationId by its method and path, apart from the names it has', async () => {
    const ok = '{responses: {"200": {description: ok}}}';
    const file = await contractFile(
      `${HEAD}paths:\n  /orders: {get: ${ok}, post: {operationId: getOrdersById, responses: {"201": {description: ok}}}}\n  /orders/{id}: {get: ${ok}, delete: ${ok}}\n  /api/order-items/: {get: ${ok}}\n`,
    );
    const contract = await loadContract(file);
    expect(contract.operations.map((o) => `${o.method} ${o.path} ${o.operationId}`)).toEqual([
      'GET /orders getOrders',
      'POST /orders getOrdersById',
      'GET /orders/{id} getOrdersById_2',
      'DELETE /orders/{id} deleteOrdersById',
      'GET /api/order-items/ getApiOrderItems',
    ]);
  });

  it('refuses an operationId used twice', async () => {
    const op = (id: string) => `{operationId: ${id}, responses: {"200": {description: ok}}}`;
    const file = await contractFile(`${HEAD}paths:\n  /a: {get: ${op('same')}}\n  /b: {get: ${op('same')}}\n`);
    await expect(loadContract(file)).rejects.toThrow("operationId 'same' is used twice");
  });

  it.each(['3.0.3', '3.1.0'])(
    'validates a schema that refers to itself, through another and by name, at any depth (OpenAPI %s)',
    async (version) => {
      // A Node's children are Nodes; a Rule's clauses hold Rules; a 3.0 nullable inside the recursion is read as null.
      const nullable = version === '3.0.3' ? '{type: string, nullable: true}' : '{type: [string, "null"]}';
      const schemas = `{Node: {type: object, required: [name], properties: {name: {type: string}, children: {type: array, items: {$ref: "#/components/schemas/Node"}}, rule: {$ref: "#/components/schemas/Rule"}}}, Rule: {type: object, required: [match], properties: {match: {enum: [all, any]}, note: ${nullable}, clauses: {type: array, items: {type: object, properties: {nested: {$ref: "#/components/schemas/Rule"}}}}}}}`;
      const body = '{content: {application/json: {schema: {$ref: "#/components/schemas/Node"}}}}';
      const file = await contractFile(
        `openapi: ${version}\ninfo: {title: T, version: "1"}\npaths:\n  /a: {post: {operationId: a, requestBody: ${body}, responses: {"200": {description: ok}}}}\ncomponents: {schemas: ${schemas}}\n`,
      );
      const contract = await loadContract(file);
      const validate = contract.byId.get('a')?.requestBody?.contents[0]?.validate;
      let deep: Record<string, unknown> = {
        name: 'leaf',
        rule: { match: 'any', note: null, clauses: [{ nested: { match: 'all' } }] },
      };
      for (let i = 0; i < 50; i++) deep = { name: `n${i}`, children: [deep] };
      expect(validate?.(deep)).toEqual([]);
      const wrong = {
        name: 'a',
        children: [{ name: 'b', children: [{ name: 7 }] }],
        rule: { match: 'all', clauses: [{ nested: { match: 'none' } }] },
      };
      expect(validate?.(wrong)).toEqual([
        { path: 'body.children[0].children[0].name', message: 'must be string' },
        { path: 'body.rule.clauses[0].nested.match', message: 'must be one of "all", "any"' },
      ]);
      // The named schemas validate trees too (fixtures, records held by the mock).
      expect(contract.schemas.get('Node')?.(deep)).toEqual([]);
      expect(contract.schemas.get('Node')?.(wrong)).toHaveLength(2);
    },
  );
});

describe('loadContract on schemas that each refer to every other', () => {
  it('stops with a contract error saying what is not supported, not a crash', async () => {
    const names = ['S0', 'S1', 'S2', 'S3'];
    const properties = names.map((name) => `${name.toLowerCase()}: {$ref: "#/components/schemas/${name}"}`).join(', ');
    const schemas = names.map((name) => `${name}: {type: object, properties: {${properties}}}`).join(', ');
    const body = '{content: {application/json: {schema: {$ref: "#/components/schemas/S0"}}}}';
    // The request and the answer both hold S0: Prism's model of the operation leaves a $ref into the request's schema.
    const file = await contractFile(
      `${HEAD}paths:\n  /a: {post: {operationId: a, requestBody: ${body}, responses: {"200": {description: ok, ${body.slice(1, -1)}}}}}\ncomponents: {schemas: {${schemas}}}\n`,
    );
    await expect(loadContract(file)).rejects.toThrow(
      /POST \/a: the schema of body cannot be compiled: .*each refer to several others/,
    );
  });
});

describe('loadContract on contracts as teams write them', () => {
  async function folder(files: Record<string, string>): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'contract-'));
    for (const [name, text] of Object.entries(files)) {
      await mkdir(dirname(join(dir, name)), { recursive: true });
      await writeFile(join(dir, name), text);
    }
    return join(dir, 'openapi.yaml');
  }
  const failure = (file: string) =>
    loadContract(file).then(
      () => undefined,
      (e: Error & { code?: string }) => e,
    );
  const bodyIs = (ref: string) =>
    `${HEAD}paths:\n  /a:\n    post:\n      operationId: a\n      requestBody: {content: {application/json: {schema: {$ref: "${ref}"}}}}\n      responses: {"200": {description: ok}}\n`;

  it('reads a $ref to another file relative to the file that holds it', async () => {
    const file = await folder({
      'openapi.yaml': bodyIs('./schemas/a.yaml'),
      'schemas/a.yaml': 'type: object\nrequired: [b]\nproperties:\n  b: {$ref: "./b.yaml#/B"}\n',
      'schemas/b.yaml': 'B: {type: integer}\n',
    });
    const validate = (await loadContract(file)).byId.get('a')?.requestBody?.contents[0]?.validate;
    expect(validate?.({ b: 1 })).toEqual([]);
    expect(validate?.({ b: 'x' })).toEqual([{ path: 'body.b', message: 'must be integer' }]);
  });

  it('refuses a $ref to the network where it is written, without fetching it', async () => {
    const file = await folder({
      'openapi.yaml': bodyIs('./schemas/a.yaml'),
      'schemas/a.yaml': 'type: object\nproperties:\n  b: {$ref: "https://127.0.0.1:9/b.yaml"}\n',
    });
    const error = await failure(file);
    expect(error?.message).toBe(
      `Failed to load ${file}: schemas/a.yaml#/properties/b/$ref: $ref https://127.0.0.1:9/b.yaml points at the network; contracts are read offline (save it beside the contract and refer to the file)`,
    );
    expect(error?.code).toBe('contract_invalid');
    const hostOnly = await folder({ 'openapi.yaml': bodyIs('//127.0.0.1:9/b.yaml') });
    expect((await failure(hostOnly))?.message).toContain('$ref //127.0.0.1:9/b.yaml points at the network');
  });

  it('validates a recursion through two files, each referring to the other', async () => {
    const file = await folder({
      'openapi.yaml': bodyIs('./schemas/person.yaml'),
      'schemas/person.yaml':
        'type: object\nrequired: [name]\nproperties:\n  name: {type: string}\n  team: {$ref: "./team.yaml"}\n',
      'schemas/team.yaml': 'type: object\nproperties:\n  lead: {$ref: "./person.yaml"}\n  size: {type: integer}\n',
    });
    const validate = (await loadContract(file)).byId.get('a')?.requestBody?.contents[0]?.validate;
    expect(validate?.({ name: 'a', team: { lead: { name: 'b', team: { lead: { name: 'c' }, size: 2 } } } })).toEqual([]);
    expect(validate?.({ name: 'a', team: { lead: { name: 'b', team: { lead: { name: 3 } } } } })).toEqual([
      { path: 'body.team.lead.team.lead.name', message: 'must be string' },
    ]);
  });

  it('names the $ref of a file that cannot be read, the pointer a file lacks and the line of a broken file', async () => {
    const missingFile = await folder({ 'openapi.yaml': bodyIs('./schemas/nope.yaml') });
    expect((await failure(missingFile))?.message).toMatch(
      /^Failed to load .*: openapi\.yaml#\/paths\/~1a\/post\/requestBody\/content\/application~1json\/schema\/\$ref: .*schemas\/nope\.yaml.*ENOENT/,
    );
    const missingPointer = await folder({ 'openapi.yaml': bodyIs('./a.yaml#/Nope'), 'a.yaml': 'A: {type: string}\n' });
    expect((await failure(missingPointer))?.message).toMatch(
      /^Failed to load .*: openapi\.yaml#\/paths\/~1a\/.*\/schema: Missing \$ref pointer "#\/Nope"/,
    );
    const broken = await folder({ 'openapi.yaml': bodyIs('./a.yaml'), 'a.yaml': 'type: {\n' });
    expect((await failure(broken))?.message).toMatch(/a\.yaml: line \d+, column \d+: /);
    expect((await failure(broken))?.message).not.toContain('refers to itself');
  });

  it('accepts a nullable enum that lists null (OpenAPI 3.0.3), and validates null and its values', async () => {
    const file = await contractFile(
      bodyIs('#/components/schemas/S').replace(
        /\n$/,
        '\ncomponents: {schemas: {S: {type: string, nullable: true, enum: [a, null]}}}\n',
      ),
    );
    const validate = (await loadContract(file)).byId.get('a')?.requestBody?.contents[0]?.validate;
    expect(validate?.(null)).toEqual([]);
    expect(validate?.('a')).toEqual([]);
    expect(validate?.('b')).not.toEqual([]);
  });

  it('accepts nullable beside anyOf with no type (as Stripe writes an expandable field), and validates null and each branch', async () => {
    const file = await contractFile(
      bodyIs('#/components/schemas/S').replace(
        /\n$/,
        '\ncomponents: {schemas: {S: {nullable: true, anyOf: [{type: string, maxLength: 3}, {type: object, required: [id]}]}}}\n',
      ),
    );
    const validate = (await loadContract(file)).byId.get('a')?.requestBody?.contents[0]?.validate;
    expect(validate?.(null)).toEqual([]);
    expect(validate?.('src')).toEqual([]);
    expect(validate?.({ id: 1 })).toEqual([]);
    expect(validate?.('long')).not.toEqual([]);
    expect(validate?.(7)).not.toEqual([]);
  });

  it('takes a format no validator knows (uint32, phone) without a word, and still validates the type', async () => {
    const file = await contractFile(
      bodyIs('#/components/schemas/S').replace(
        /\n$/,
        '\ncomponents: {schemas: {S: {type: object, properties: {n: {type: integer, format: uint32}, p: {type: string, format: phone}}}}}\n',
      ),
    );
    const warned: unknown[] = [];
    const warn = vi.spyOn(console, 'warn').mockImplementation((...args) => void warned.push(args[0]));
    try {
      const validate = (await loadContract(file)).byId.get('a')?.requestBody?.contents[0]?.validate;
      expect(validate?.({ n: 7, p: 'any text' })).toEqual([]);
      expect(validate?.({ n: 'seven' })).not.toEqual([]);
    } finally {
      warn.mockRestore();
    }
    expect(warned.filter((message) => String(message).includes('unknown format'))).toEqual([]);
  });

  it('reads a named 3.0 schema in its own dialect: a boolean exclusiveMinimum, nullable', async () => {
    const file = await contractFile(
      bodyIs('#/components/schemas/S').replace(
        /\n$/,
        '\ncomponents: {schemas: {S: {type: object, properties: {price: {type: number, minimum: 0, exclusiveMinimum: true}, note: {type: string, nullable: true}}}}}\n',
      ),
    );
    const named = (await loadContract(file)).schemas.get('S');
    expect(named?.({ price: 1, note: null })).toEqual([]);
    expect(named?.({ price: 0 })).not.toEqual([]);
  });

  it('never requires a readOnly property in a request, nor a writeOnly one in a response, wherever allOf puts them', async () => {
    const thing =
      '{allOf: [{type: object, required: [id, name, secret], properties: {name: {type: string}}}, {properties: {id: {type: integer, readOnly: true}, secret: {type: string, writeOnly: true}}}]}';
    const file = await contractFile(
      `${HEAD}paths:\n  /a:\n    post:\n      operationId: a\n      requestBody: {content: {application/json: {schema: {$ref: "#/components/schemas/T"}}}}\n      responses: {"201": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/T"}}}}}\ncomponents: {schemas: {T: ${thing}}}\n`,
    );
    const operation = (await loadContract(file)).byId.get('a');
    const request = operation?.requestBody?.contents[0];
    const response = operation?.responses[0]?.contents[0];
    expect(request?.validate?.({ name: 'n', secret: 's' })).toEqual([]);
    // OpenAPI 3.0.3: readOnly "SHOULD NOT be sent": a server may ignore it, so it is not refused.
    expect(request?.validate?.({ name: 'n', secret: 's', id: 1 })).toEqual([]);
    expect(request?.validate?.({ name: 'n' })).toEqual([{ path: 'body.secret', message: 'is required' }]);
    expect(response?.validate?.({ id: 1, name: 'n' })).toEqual([]);
    expect(response?.validate?.({ name: 'n' })).toEqual([{ path: 'body.id', message: 'is required' }]);
    // What the generators read: one object, each direction without what it does not carry.
    expect(request?.schema).toMatchObject({ type: 'object', required: ['name', 'secret'] });
    expect(Object.keys(request?.schema?.properties ?? {})).toEqual(['name', 'secret']);
    expect(response?.schema).toMatchObject({ type: 'object', required: ['id', 'name'] });
  });

  it('validates an OpenAPI 3.1 contract as JSON Schema 2020-12: type arrays, numeric exclusive bounds, prefixItems', async () => {
    const schema =
      '{type: object, properties: {s: {type: [string, "null"]}, n: {type: integer, exclusiveMinimum: 0}, t: {type: array, prefixItems: [{type: string}]}}}';
    const file = await contractFile(
      `openapi: 3.1.0\ninfo: {title: T, version: "1"}\nservers: [{url: "{b}", variables: {b: {default: /v1, description: where}}}]\npaths:\n  /a:\n    post:\n      operationId: a\n      requestBody: {content: {application/json: {schema: ${schema}}}}\n      responses: {"200": {description: ok}}\n`,
    );
    const media = (await loadContract(file)).byId.get('a')?.requestBody?.contents[0];
    expect(media?.validate?.({ s: null, n: 1, t: ['x', 2] })).toEqual([]);
    expect(media?.validate?.({ n: 0 })).toEqual([{ path: 'body.n', message: 'must be > 0' }]);
    expect(media?.validate?.({ t: [2] })).toEqual([{ path: 'body.t[0]', message: 'must be string' }]);
    expect(media?.schema?.properties?.s).toMatchObject({ type: 'string', nullable: true });
  });
});
