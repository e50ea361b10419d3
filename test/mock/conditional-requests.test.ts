import { afterAll, describe, expect, it } from 'vitest';
import { createMockServer } from '../../src/mock/create-mock-server.js';
import { blockingCheckIds, runCli } from '../conformance/run-cli.js';
import { call } from '../support/http.js';

// The promises test/contracts/conditional makes through headers, kept by the mock: 304 where it is documented, 412
// for a stale If-Match, 428 where If-Match is required, and the list's X-Total-Count.
const CONTRACT = 'test/contracts/conditional/openapi.yaml';
const MERGE = { 'content-type': 'application/merge-patch+json' };

type Row = Record<string, unknown>;

describe('conditional requests and a count header, on the mock', async () => {
  // Not startMock: its self-check holds answers to openapi.yaml's error body, which is not this contract's.
  const mock = await createMockServer({ contract: CONTRACT, fixtures: false, port: 0, host: '127.0.0.1' });
  afterAll(() => mock.close());

  const document = async (title: string, ownerId: number) => {
    const made = await call(mock.url, 'POST', '/documents', { body: { title, ownerId } });
    expect(made.status, made.text).toBe(201);
    return `/documents/${(made.json as Row).id}`;
  };

  it('answers 304 with the ETag and no content to an If-None-Match naming it, and 200 once the record changed', async () => {
    const path = await document('Draft', 1);
    const read = await call(mock.url, 'GET', path);
    const tag = read.headers.etag as string;
    expect(tag).toMatch(/^"[^"]+"$/);
    const again = await call(mock.url, 'GET', path, { headers: { 'if-none-match': `"other", W/${tag}` } });
    expect(again.status).toBe(304);
    expect(again.headers.etag).toBe(tag);
    expect(again.headers['content-length']).toBeUndefined();
    expect(again.text).toBe('');
    const put = await call(mock.url, 'PUT', path, { body: { title: 'Final', ownerId: 1 }, headers: { 'if-match': tag } });
    expect(put.status, put.text).toBe(200);
    expect(put.headers.etag).not.toBe(tag);
    const after = await call(mock.url, 'GET', path, { headers: { 'if-none-match': tag } });
    expect(after.status).toBe(200);
    expect(after.headers.etag).toBe(put.headers.etag);
    expect((after.json as Row).title).toBe('Final');
  });

  it('refuses a stale If-Match with 412 in the Error body and changes nothing; * matches the record', async () => {
    const path = await document('Kept', 2);
    const stale = await call(mock.url, 'PATCH', path, {
      body: { title: 'Lost' },
      headers: { ...MERGE, 'if-match': '"conformance-stale"' },
    });
    expect(stale.status).toBe(412);
    expect(stale.json).toEqual({ code: 'precondition_failed', message: expect.any(String), status: 412 });
    // If-Match compares strongly (RFC 9110 §13.1.1): the record's own tag made weak does not match.
    const tag = (await call(mock.url, 'GET', path)).headers.etag as string;
    const weak = await call(mock.url, 'PATCH', path, { body: { title: 'Lost' }, headers: { ...MERGE, 'if-match': `W/${tag}` } });
    expect(weak.status).toBe(412);
    expect(((await call(mock.url, 'GET', path)).json as Row).title).toBe('Kept');
    const any = await call(mock.url, 'PATCH', path, { body: { title: 'Any' }, headers: { ...MERGE, 'if-match': '*' } });
    expect(any.status, any.text).toBe(200);
  });

  it('refuses a write whose If-None-Match is * or names the record, which exists, with 412 (RFC 9110 §13.1.2)', async () => {
    const path = await document('Only once', 3);
    const tag = (await call(mock.url, 'GET', path)).headers.etag as string;
    for (const ifNoneMatch of ['*', `W/${tag}`, `"other", ${tag}`]) {
      const refused = await call(mock.url, 'PUT', path, {
        body: { title: 'Over', ownerId: 3 },
        headers: { 'if-none-match': ifNoneMatch },
      });
      expect(refused.status, ifNoneMatch).toBe(412);
      expect(refused.json).toMatchObject({ code: 'precondition_failed', message: expect.stringContaining('If-None-Match') });
    }
    expect(((await call(mock.url, 'GET', path)).json as Row).title).toBe('Only once');
    const other = await call(mock.url, 'PUT', path, {
      body: { title: 'Changed', ownerId: 3 },
      headers: { 'if-none-match': '"other"' },
    });
    expect(other.status, other.text).toBe(200);
  });

  it('refuses a DELETE without the If-Match it requires with 428, and deletes with the current tag', async () => {
    const path = await document('Gone', 3);
    const bare = await call(mock.url, 'DELETE', path);
    expect(bare.status).toBe(428);
    expect((bare.json as Row).code).toBe('precondition_required');
    const tag = (await call(mock.url, 'GET', path)).headers.etag as string;
    expect((await call(mock.url, 'DELETE', path, { headers: { 'if-match': tag } })).status).toBe(204);
    expect((await call(mock.url, 'GET', path)).status).toBe(404);
  });

  it('says in X-Total-Count how many records the query matches, past the page', async () => {
    for (const title of ['A', 'B', 'C']) await document(title, 424242);
    const page = await call(mock.url, 'GET', '/documents?ownerId=424242&limit=2');
    expect(page.json).toHaveLength(2);
    expect(page.headers['x-total-count']).toBe('3');
  });

  it('sends the ETag of a read that documents no 304, and never answers it 304 (the mock stays within the contract)', async () => {
    const made = await call(mock.url, 'POST', '/labels', { body: { name: 'red' } });
    const path = `/labels/${(made.json as Row).id}`;
    const tag = (await call(mock.url, 'GET', path)).headers.etag as string;
    expect(tag).toMatch(/^"[^"]+"$/);
    expect((await call(mock.url, 'GET', path, { headers: { 'if-none-match': tag } })).status).toBe(200);
  });

  it('passes the runner, its conditional cases seen kept (the 304, 412 and 428 came)', async () => {
    const run = await runCli(['--target', mock.url, '--contract', CONTRACT, '--seed', '1', '-r', 'json']);
    const report = await run.report();
    expect(blockingCheckIds(report), run.out).toEqual([]);
    expect(run.code, run.out).toBe(0);
    const conditional = report.scenarios.filter((s) => s.kind === 'conditional');
    expect(conditional.map((s) => [s.id, s.outcome])).toEqual(conditional.map((s) => [s.id, 'passed']));
    const statuses = conditional.flatMap((s) => s.exchanges.map((e) => e.status));
    expect(statuses).toEqual(expect.arrayContaining([304, 412, 428]));
  });
});
