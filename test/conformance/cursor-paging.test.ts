import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../src/mock/create-mock-server.js';
import { DEV_API_KEY } from '../../src/mock/mock-options.js';
import { startCrudServer } from '../support/crud-server.js';
import { namedCheckIds, runCli } from './run-cli.js';
import { useCrudServer } from './use-crud-server.js';

// listBooks pages by `cursor`, and its answer carries the next one in `next` ({ items, next }).
const LIBRARY = 'test/contracts/library-api/openapi.yaml';
const ARGS = ['--generate', 'pagination', '--case', 'pagination/listBooks/*', '--seed', '1', '-r', 'json'];

const { runAgainst, failsEach } = useCrudServer(ARGS);

let mock: MockServer | undefined;
let hostile: Server | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
  hostile?.closeAllConnections();
  await new Promise((resolve) => hostile?.close(resolve) ?? resolve(undefined));
  hostile = undefined;
});

describe('a cursor-paged list walked by the cursors its answers carry', () => {
  it('passes a correct server of its own cursors, having read every page with the cursor before it', async () => {
    const run = await runAgainst(LIBRARY);
    expect(run.code, run.out).toBe(0);
    const walk = (await run.report()).scenarios.find((s) => s.id === 'pagination/listBooks/cursor-walk');
    expect(walk?.outcome, run.out).toBe('passed');
    const pages = walk?.exchanges.filter((e) => e.url.includes('limit=2')) ?? [];
    expect(pages.length).toBe(3);
    expect(pages.slice(1).every((e) => /[?&]cursor=[A-Za-z0-9_-]+/.test(e.url))).toBe(true);
  });

  it('passes the mock, which hands out its own cursors from the same resource-model rule', async () => {
    mock = await createMockServer({ contract: LIBRARY, port: 0, host: '127.0.0.1', log: () => {} });
    const run = await runCli(['--target', mock.url, '--contract', LIBRARY, ...ARGS]);
    expect(run.code, run.out).toBe(0);
    const walk = (await run.report()).scenarios.find((s) => s.id === 'pagination/listBooks/cursor-walk');
    expect(walk?.outcome, run.out).toBe('passed');
    expect(walk?.exchanges.filter((e) => e.url.includes('cursor=')).length).toBe(2);
  });

  it('follows a Link rel="next" header, which the mock sends where the contract declares one', async () => {
    const contract = await linkedContract();
    mock = await createMockServer({ contract, port: 0, host: '127.0.0.1', log: () => {} });
    const args = ['--generate', 'pagination', '--case', 'pagination/listNotes/*', '--seed', '1', '-r', 'json'];
    const run = await runCli(['--target', mock.url, '--contract', contract, ...args]);
    expect(run.code, run.out).toBe(0);
    const walk = (await run.report()).scenarios.find((s) => s.id === 'pagination/listNotes/after-walk');
    expect(walk?.outcome, run.out).toBe('passed');
    // A collection other cases share: the walk reads every record of the run, two to a page.
    expect(walk?.exchanges.filter((e) => /[?&]after=\d+/.test(e.url)).length).toBeGreaterThan(2);
  });

  failsEach([{ contract: LIBRARY, breakage: 'ignores-cursor', check: 'cursor-walk' }]);

  it('judges a walk whose pages each list 200,000 records, the limit ignored, as a failure and not a runner bug', async () => {
    // Spread into push(), 200,000 ids were past V8's argument limit: exit 4, "Maximum call stack size exceeded".
    const contract = await linkedContract();
    const page = `[${Array.from({ length: 200_000 }, (_, i) => `{"id":${i},"text":"a"}`).join(',')}]`;
    let created = 1;
    hostile = createServer((req, res) => {
      req.resume();
      const json = { 'content-type': 'application/json' };
      if (req.method === 'POST') res.writeHead(201, json).end(`{"id":${created++},"text":"a"}`);
      else if (req.url?.startsWith('/v1/notes/')) res.writeHead(200, json).end('{"id":1,"text":"a"}');
      else {
        // Every page is the same records, so the second repeats the first, and the third, which ends the walk, too.
        const after = Number(/after=p(\d)/.exec(req.url ?? '')?.[1] ?? 0);
        const link = after === 2 ? {} : { link: `</v1/notes?after=p${after + 1}>; rel="next"` };
        res.writeHead(200, { ...json, ...link }).end(page);
      }
    });
    await new Promise<void>((resolve) => hostile?.listen(0, '127.0.0.1', resolve));
    const target = `http://127.0.0.1:${(hostile.address() as { port: number }).port}/v1`;
    const args = ['--generate', 'pagination', '--case', 'pagination/listNotes/after-walk', '--seed', '1', '-r', 'json'];
    const run = await runCli(['--target', target, '--contract', contract, ...args]);
    expect(run.code, run.err).toBe(1);
    const walk = (await run.report()).scenarios.find((s) => s.id === 'pagination/listNotes/after-walk');
    expect(walk?.findings.map((f) => f.received).join('\n')).toMatch(/page 3 answered records of an earlier page again/);
  });
});

describe('a walk written in a scenario file', () => {
  const FILE_ARGS = ['--no-generate', '--seed', '1', '-r', 'json'];

  it('reads every page of the mock by its cursors, and passes', async () => {
    mock = await createMockServer({ contract: LIBRARY, port: 0, host: '127.0.0.1', log: () => {} });
    const run = await runCli(['--target', mock.url, '--contract', LIBRARY, '--scenarios', await walkFile(), ...FILE_ARGS]);
    expect(run.code, run.out).toBe(0);
    const walk = (await run.report()).scenarios.find((s) => s.name === 'books are walked page by page');
    expect(walk?.outcome, run.out).toBe('passed');
    expect(walk?.exchanges.filter((e) => /[?&]cursor=\d+/.test(e.url)).length).toBe(2);
  });

  it('fails a server that ignores the cursor, naming cursor-walk', async () => {
    const server = await startCrudServer(LIBRARY, DEV_API_KEY, 'ignores-cursor');
    try {
      const run = await runCli(['--target', server.url, '--contract', LIBRARY, '--scenarios', await walkFile(), ...FILE_ARGS]);
      expect(run.code, run.out).toBe(1);
      expect(namedCheckIds(await run.report())).toContain('cursor-walk');
    } finally {
      await server.close();
    }
  });

  it('refuses a walk of a list that takes no cursor, naming the file, the line and the field', async () => {
    const file = await scenarioFile([
      'scenarios:',
      '  - name: authors walked',
      '    description: Given authors, when they are walked, then each is listed once.',
      '    steps:',
      '      - operation: listAuthors',
      '        walk: true',
    ]);
    const run = await runCli(['--target', 'http://127.0.0.1:9/v1', '--contract', LIBRARY, '--scenarios', file, ...FILE_ARGS]);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(
      /walk\.yaml: line 6: scenarios\[0\]\.steps\[0\]\.walk: listAuthors cannot be walked: its list takes no cursor parameter/,
    );
  });
});

// Five books under an author of the scenario's own, then their list read two at a time by the cursor.
function walkFile(): Promise<string> {
  return scenarioFile([
    'scenarios:',
    '  - name: books are walked page by page',
    '    description: Given an author with five books, when the books are read two at a time by the cursor, then each is listed once.',
    '    tags: [mutating]',
    '    steps:',
    '      - operation: createAuthor',
    "        body: { name: 'Walker {{run.id}}' }",
    '        capture: author',
    '      - operation: addBook',
    "        params: { authorId: '{{author.body.id}}' }",
    "        body: { isbn: '978-2-00-00000{{repeat.index}}', title: 'Book {{repeat.index}}' }",
    '        repeat: 5',
    '      - operation: listBooks',
    "        params: { authorId: '{{author.body.id}}' }",
    '        query: { limit: 2 }',
    '        walk: { atLeast: 5, ownCollection: true }',
    '        expect: { status: 200 }',
  ]);
}

async function scenarioFile(lines: readonly string[]): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'walk-')), 'walk.yaml');
  await writeFile(file, lines.join('\n'));
  return file;
}

// Notes listed as a bare array, paged by `after`, the next page's URL in a Link header.
async function linkedContract(): Promise<string> {
  const note = {
    type: 'object',
    required: ['id', 'text'],
    properties: { id: { type: 'integer', readOnly: true }, text: { type: 'string' } },
  };
  const json = { 'application/json': { schema: note } };
  const bearer = { bearer: { type: 'http', scheme: 'bearer' } };
  const document = {
    openapi: '3.0.3',
    info: { title: 'Notes', version: '1' },
    servers: [{ url: '/v1' }],
    security: [{ bearer: [] }],
    components: { securitySchemes: bearer },
    paths: {
      '/notes': {
        get: {
          operationId: 'listNotes',
          parameters: [
            { name: 'after', in: 'query', schema: { type: 'string' } },
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 20 } },
          ],
          responses: {
            '200': {
              description: 'A page of notes.',
              headers: { Link: { schema: { type: 'string' } } },
              content: { 'application/json': { schema: { type: 'array', items: note } } },
            },
          },
        },
        post: {
          operationId: 'createNote',
          requestBody: { required: true, content: json },
          responses: { '201': { description: 'Stored.', content: json } },
        },
      },
      '/notes/{id}': {
        get: {
          operationId: 'getNote',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
          responses: { '200': { description: 'The note.', content: json }, '404': { description: 'None.' } },
        },
      },
    },
  };
  const file = join(await mkdtemp(join(tmpdir(), 'cursor-link-')), 'openapi.yaml');
  await writeFile(file, JSON.stringify(document));
  return file;
}
