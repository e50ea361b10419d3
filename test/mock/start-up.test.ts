import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockServer } from '../../src/mock/create-mock-server.js';
import type { MockOptions } from '../../src/mock/mock-options.js';
import { call } from '../support/http.js';
import { spawnBin } from '../support/spawn-bin.js';
import { startMock } from '../support/start-mock.js';

/** A port on 127.0.0.1 that something else holds until the file ends. */
async function occupiedPort(): Promise<number> {
  const holder: Server = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  afterAll(() => new Promise<void>((resolve) => holder.close(() => resolve())));
  return (holder.address() as { port: number }).port;
}

async function refusal(options: MockOptions): Promise<Error & { code?: string }> {
  const outcome = await createMockServer({ port: 0, ...options }).then(
    async (mock) => {
      await mock.close();
      return undefined;
    },
    (error: Error & { code?: string }) => error,
  );
  expect(outcome, 'the mock started').toBeInstanceOf(Error);
  return outcome as Error & { code?: string };
}

describe('createMockServer refuses options it cannot honour', () => {
  it.each([
    [{ maxPets: -1 }, 'maxPets must be a whole number of at least 1 (got -1)'],
    [{ maxPets: 0, fixtures: false as const }, 'maxPets must be a whole number of at least 1 (got 0)'],
    [{ maxPets: 1.5 }, 'maxPets must be a whole number of at least 1 (got 1.5)'],
    [{ basePath: 'v2' }, "basePath must be a path that starts with '/' and does not end with one, e.g. '/v1' (got \"v2\")"],
    [{ basePath: '/v2/' }, "basePath must be a path that starts with '/'"],
    [{ port: 70000 }, 'port must be a whole number from 0 to 65535 (got 70000)'],
    [{ maxBodyBytes: 0 }, 'maxBodyBytes must be a whole number of at least 1 (got 0)'],
    [{ corsOrigins: ['http://localhost:3000/'] }, "corsOrigins must be '*' or origins as a browser sends them"],
    [{ corsOrigins: ['not a url'] }, '(got ["not a url"])'],
    [{ corsOrigins: ['http://localhost:3000', 'localhost:5173'] }, 'corsOrigins must be'],
  ])('throws invalid_option for %j', async (options, message) => {
    const error = await refusal(options);
    expect(error.code).toBe('invalid_option');
    expect(error.message).toContain(message);
  });

  it('refuses an empty, space-padded or non-ASCII API key without repeating any key', async () => {
    for (const apiKeys of [[''], ['good-key', ' padded-secret '], ['good-key', 'clé-secrète'], ['good-key', 'two words']]) {
      const error = await refusal({ apiKeys });
      expect(error.code).toBe('invalid_option');
      expect(error.message).toContain('apiKeys must be a list of keys');
      expect(error.message).not.toMatch(/good-key|padded-secret|secrète|words/);
    }
  });

  it('refuses fixtures that hold more pets than maxPets, naming both numbers', async () => {
    const error = await refusal({ maxPets: 5 });
    expect(error.code).toBe('fixtures_invalid');
    expect(error.message).toContain('it holds 24 pets, more than --max-pets 5 allows');
  });

  it("serves at the base path the contract's servers give, its variables at their defaults", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'petstore-base-'));
    const contract = join(dir, 'openapi.yaml');
    await writeFile(
      contract,
      [
        'openapi: 3.0.3',
        'info: {title: T, version: "1"}',
        "servers: [{url: 'http://localhost:{port}/api/{version}', variables: {port: {default: '8080'}, version: {default: v3}}}]",
        'security: []',
        'paths:',
        '  /ping:',
        '    get:',
        '      operationId: ping',
        "      responses: {'200': {description: ok, content: {application/json: {schema: {type: object}, example: {}}}}}",
        '',
      ].join('\n'),
    );
    const mock = await createMockServer({ contract, port: 0, host: '127.0.0.1', log: () => {} });
    try {
      expect(mock.url).toMatch(/\/api\/v3$/);
      expect((await call(mock.url, 'GET', '/ping')).status).toBe(200);
    } finally {
      await mock.close();
    }
  });

  it('says in one line that the port is in use', async () => {
    const port = await occupiedPort();
    const error = await refusal({ port, host: '127.0.0.1' });
    expect(error.code).toBe('listen_failed');
    expect(error.message).toBe(`port ${port} is already in use: choose another with --port`);
  });
});

describe('POST /__admin/reset after the fixtures file changed', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-reset-'));
  const file = join(dir, 'pets.json');
  await writeFile(file, '[{"id":1,"name":"a","categoryId":1}]');
  const mock = await startMock({ fixtures: file, maxPets: 2 });

  it('restores the fixtures read at start-up, whatever the file holds now', async () => {
    await call(mock.url, 'POST', '/pets', { body: { name: 'later', categoryId: 1 } });
    await writeFile(
      file,
      '[{"id":1,"name":"a","categoryId":1},{"id":2,"name":"b","categoryId":1},{"id":3,"name":"c","categoryId":1}]',
    );
    const reply = await call(new URL(mock.url).origin, 'POST', '/__admin/reset', { auth: null });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ status: 'reset', pets: 1 });
    expect(mock.store.size).toBe(1);
  });
});

describe('petstore-mock refuses bad start-up input with exit 2 and one clear line', () => {
  it.each([
    [['--max-pets', '5'], {}, 'it holds 24 pets, more than --max-pets 5 allows'],
    [['--max-pets', '0'], {}, '--max-pets must be a whole number from 1 to 100000000'],
    [['--api-key', ''], {}, '--api-key must not be empty'],
    [['--api-key', ' spaced-secret'], {}, '--api-key must not begin or end with a space'],
    [['--fixtures', 'fixtures/pets.json', '--no-fixtures'], {}, '--fixtures and --no-fixtures cannot be used together'],
    [[], { PETSTORE_API_KEYS: ',' }, 'PETSTORE_API_KEYS holds no key'],
    [[], { PETSTORE_API_KEYS: ' , ,' }, 'PETSTORE_API_KEYS holds no key'],
  ])('%j %j', async (args, env, message) => {
    const { code, stdout, stderr } = await spawnBin('petstore-mock', ['--port', '0', ...args], env).exited;
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(stdout).not.toContain('Base URL');
    expect(stderr).not.toContain('spaced-secret');
  });

  it('names a port already in use, without a stack trace', async () => {
    const port = await occupiedPort();
    const { code, stderr } = await spawnBin('petstore-mock', ['--port', String(port)]).exited;
    expect(code).toBe(2);
    expect(stderr).toBe(`petstore-mock: port ${port} is already in use: choose another with --port\n`);
  });
});

describe('petstore-mock refuses a fixtures file of any shape with exit 2 naming it', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-deep-'));
  const deep = 100_000;
  it.each([
    ['arrays 100,000 deep', `${'['.repeat(deep)}${']'.repeat(deep)}`],
    ['unclosed arrays 100,000 deep', '['.repeat(deep)],
    ['an object 100,000 deep in a pet', `[{"id":1,"name":"a","categoryId":1,"x":${'{"a":'.repeat(deep)}1${'}'.repeat(deep)}}]`],
    [
      'arrays 100,000 deep in a pet with a fraction',
      `[{"id":1,"name":"a","categoryId":1.5,"x":${'['.repeat(deep)}${']'.repeat(deep)}}]`,
    ],
  ])('%s', async (name, text) => {
    const file = join(dir, `${name.replaceAll(/\W/g, '-')}.json`);
    await writeFile(file, text);
    const { code, stderr } = await spawnBin('petstore-mock', ['--port', '0', '--fixtures', file]).exited;
    expect(code).toBe(2);
    expect(stderr).toContain(`Failed to load fixtures ${file}: `);
    expect(stderr).not.toContain('    at ');
  });
});
