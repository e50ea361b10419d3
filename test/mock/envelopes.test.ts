import { describe, expect, it } from 'vitest';
import { call } from '../support/http.js';
import { startMock } from '../support/start-mock.js';

// Records in envelopes (docs/reference/resources.md rule 10), over plain HTTP: the mock stores the record a write
// sends inside `data`, and answers every record in the envelope its contract documents, the members beside it
// (`meta`) filled within their schemas. startMock holds every answer to the contract when the file ends.
const ENVELOPE = 'test/contracts/envelope/openapi.yaml';

type Row = Record<string, unknown>;

describe('a contract that wraps every record in an envelope', async () => {
  const mock = await startMock({ contract: ENVELOPE, fixtures: false });

  it('creates, lists, gets, replaces, patches and deletes a record, each answer wrapped', async () => {
    const made = await call(mock.url, 'POST', '/customers', { body: { data: { name: 'Ada', tier: 'pro' } } });
    expect(made.status).toBe(201);
    const created = made.json as { data: Row; meta: Row };
    expect(created.data).toMatchObject({ name: 'Ada', tier: 'pro' });
    expect(Object.keys(created.data)).not.toContain('data');
    expect(typeof created.meta.request_id).toBe('string');
    const id = created.data.id as string;

    expect(((await call(mock.url, 'GET', `/customers/${id}`)).json as Row).data).toEqual(created.data);
    const listed = (await call(mock.url, 'GET', '/customers?tier=pro')).json as { data: Row[]; meta: Row };
    expect(listed.data.map((c) => c.id)).toEqual([id]);
    expect(listed.meta).toMatchObject({ next_cursor: null });
    expect(typeof listed.meta.total).toBe('number');

    const replaced = await call(mock.url, 'PUT', `/customers/${id}`, { body: { data: { name: 'Grace', tier: 'free' } } });
    expect((replaced.json as Row).data).toMatchObject({ id, name: 'Grace', tier: 'free', created_at: created.data.created_at });
    const patched = await call(mock.url, 'PATCH', `/customers/${id}`, {
      body: JSON.stringify({ data: { seats: 5 } }),
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect((patched.json as Row).data).toMatchObject({ id, name: 'Grace', seats: 5 });
    expect(((await call(mock.url, 'GET', `/customers/${id}`)).json as Row).data).toMatchObject({ name: 'Grace', seats: 5 });

    expect((await call(mock.url, 'DELETE', `/customers/${id}`)).status).toBe(204);
    expect((await call(mock.url, 'GET', `/customers/${id}`)).status).toBe(404);
    expect(((await call(mock.url, 'GET', '/customers')).json as Row).data).toEqual([]);
  });

  it('pages the list by the cursor in meta, null on the last page', async () => {
    for (const name of ['one', 'two', 'three']) {
      await call(mock.url, 'POST', '/customers', { body: { data: { name, tier: 'enterprise' } } });
    }
    const first = (await call(mock.url, 'GET', '/customers?tier=enterprise&limit=2')).json as { data: Row[]; meta: Row };
    expect(first.data.map((c) => c.name)).toEqual(['three', 'two']);
    expect(typeof first.meta.next_cursor).toBe('string');
    const cursor = encodeURIComponent(first.meta.next_cursor as string);
    const second = (await call(mock.url, 'GET', `/customers?tier=enterprise&limit=2&cursor=${cursor}`)).json as {
      data: Row[];
      meta: Row;
    };
    expect(second.data.map((c) => c.name)).toEqual(['one']);
    expect(second.meta.next_cursor).toBeNull();
  });
});
