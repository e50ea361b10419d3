import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockServer } from '../../src/mock/create-mock-server.js';
import { call } from '../support/http.js';
import { startMock } from '../support/start-mock.js';

// Every stateful resource the contract implies keeps its records (issue 22, part 2), over real HTTP.
const EVOLVED = 'test/contracts/evolved-petstore/openapi.yaml';
const LIBRARY = 'test/contracts/library-api/openapi.yaml';
const SAME_SEGMENT = 'test/contracts/same-segment/openapi.yaml';

type Row = Record<string, unknown>;

describe('orders of the evolved Pet Store', async () => {
  const mock = await startMock({ contract: EVOLVED, fixtures: false });

  it('creates, lists, gets and deletes an order; afterwards it is 404 and gone from the list', async () => {
    const first = await call(mock.url, 'POST', '/store/orders', { body: { petId: 1, quantity: 2 } });
    const second = await call(mock.url, 'POST', '/store/orders', { body: { petId: 3, quantity: 1, status: 'approved' } });
    expect(first.status).toBe(201);
    const order = first.json as Row;
    const other = second.json as Row;
    expect(order).toMatchObject({ petId: 1, quantity: 2 });
    expect(typeof order.placedAt).toBe('string');
    expect(other.id).toBe((order.id as number) + 1);
    expect(first.headers.location).toBe(`${new URL(mock.url).pathname}/store/orders/${order.id}`);
    expect((await call(mock.url, 'GET', `/store/orders/${order.id}`)).json).toEqual(order);
    const listed = (await call(mock.url, 'GET', '/store/orders')).json as Row[];
    expect(listed.map((o) => o.id)).toEqual([other.id, order.id]);
    const filtered = (await call(mock.url, 'GET', '/store/orders?petId=3')).json as Row[];
    expect(filtered.map((o) => o.id)).toEqual([other.id]);

    const removed = await call(mock.url, 'DELETE', `/store/orders/${order.id}`);
    expect(removed.status).toBeGreaterThanOrEqual(200);
    expect(removed.status).toBeLessThan(300);
    expect((await call(mock.url, 'GET', `/store/orders/${order.id}`)).status).toBe(404);
    expect(((await call(mock.url, 'GET', '/store/orders')).json as Row[]).map((o) => o.id)).toEqual([other.id]);
    expect((await call(mock.url, 'DELETE', `/store/orders/${order.id}`)).status).toBe(404);
  });

  it('keeps a session apart from the default store', async () => {
    const headers = { 'x-mock-session': 'orders-a' };
    const made = await call(mock.url, 'POST', '/store/orders', { body: { petId: 9, quantity: 1 }, headers });
    expect(made.status).toBe(201);
    const id = (made.json as Row).id;
    expect((await call(mock.url, 'GET', `/store/orders/${id}`, { headers })).status).toBe(200);
    const inDefault = (await call(mock.url, 'GET', '/store/orders?petId=9')).json as Row[];
    expect(inDefault).toEqual([]);
  });
});

describe('the library API: string ids, replace, merge patch, nesting', async () => {
  // Not startMock: its self-check would flag every error answer, since the mock's Error body
  // ({code, message, status}) is not this contract's Problem ({status, title}); that is not this file's subject.
  const mock = await createMockServer({ contract: LIBRARY, fixtures: false, port: 0, host: '127.0.0.1' });
  afterAll(() => mock.close());

  it('replaces an author: the id stays, a field left out is gone', async () => {
    const made = await call(mock.url, 'POST', '/authors', { body: { name: 'Ursula', country: 'US', born: 1929 } });
    expect(made.status).toBe(201);
    const author = made.json as Row;
    expect(author.id).toMatch(/^[0-9a-f-]{36}$/);
    const otherId = '00000000-0000-4000-8000-000000000001';
    const put = await call(mock.url, 'PUT', `/authors/${author.id}`, { body: { id: otherId, name: 'Ursula K.' } });
    expect(put.status).toBe(200);
    expect(put.json).toEqual({ id: author.id, name: 'Ursula K.' });
    expect((await call(mock.url, 'GET', `/authors/${author.id}`)).json).toEqual({ id: author.id, name: 'Ursula K.' });
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await call(mock.url, 'PUT', `/authors/${unknown}`, { body: { name: 'x' } })).status).toBe(404);
  });

  it('patches a book and deletes an author with its books', async () => {
    const author = (await call(mock.url, 'POST', '/authors', { body: { name: 'Borges' } })).json as Row;
    const other = (await call(mock.url, 'POST', '/authors', { body: { name: 'Calvino' } })).json as Row;
    const books = `/authors/${author.id}/books`;
    const made = await call(mock.url, 'POST', books, { body: { isbn: '978-0-00-000001', title: 'Ficciones', genre: 'novel' } });
    expect(made.status).toBe(201);
    expect(made.json).toMatchObject({ isbn: '978-0-00-000001', title: 'Ficciones', genre: 'novel' });
    // Nested records are scoped to their parent: the same book is not reachable through another author.
    expect((await call(mock.url, 'GET', `/authors/${other.id}/books/978-0-00-000001`)).status).toBe(404);
    const patched = await call(mock.url, 'PATCH', `${books}/978-0-00-000001`, {
      body: { title: 'Ficciones (1944)' },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ isbn: '978-0-00-000001', title: 'Ficciones (1944)', genre: 'novel' });
    const page = (await call(mock.url, 'GET', books)).json as { items: Row[] };
    expect(page.items.map((b) => b.title)).toEqual(['Ficciones (1944)']);

    expect((await call(mock.url, 'DELETE', `/authors/${author.id}`)).status).toBe(204);
    expect((await call(mock.url, 'GET', `/authors/${author.id}`)).status).toBe(404);
    expect((await call(mock.url, 'GET', `${books}/978-0-00-000001`)).status).toBe(404);
    // Nothing is created under a parent that is gone.
    expect((await call(mock.url, 'POST', books, { body: { isbn: '978-0-00-000002', title: 'x' } })).status).toBe(404);
  });

  it('walks books by the cursor it hands out, and keeps its place while others create and delete', async () => {
    const author = (await call(mock.url, 'POST', '/authors', { body: { name: 'Le Guin' } })).json as Row;
    const books = `/authors/${author.id}/books`;
    for (let n = 1; n <= 5; n++) {
      const made = await call(mock.url, 'POST', books, { body: { isbn: `978-1-00-00000${n}`, title: `Book ${n}` } });
      expect(made.status).toBe(201);
    }
    type Page = { items: Row[]; next?: string | null };
    const first = (await call(mock.url, 'GET', `${books}?limit=2`)).json as Page;
    expect(first.items.map((b) => b.title)).toEqual(['Book 5', 'Book 4']);
    expect(typeof first.next).toBe('string');
    // A book created between two pages is newer than the walk's place: an offset would list Book 4 again.
    expect((await call(mock.url, 'POST', books, { body: { isbn: '978-1-00-000006', title: 'Book 6' } })).status).toBe(201);
    const second = (await call(mock.url, 'GET', `${books}?limit=2&cursor=${first.next}`)).json as Page;
    expect(second.items.map((b) => b.title)).toEqual(['Book 3', 'Book 2']);
    // Books deleted after they were read: an offset would now skip Book 1.
    for (const n of [5, 3]) expect((await call(mock.url, 'DELETE', `${books}/978-1-00-00000${n}`)).status).toBe(204);
    const last = (await call(mock.url, 'GET', `${books}?limit=2&cursor=${second.next}`)).json as Page;
    expect(last.items.map((b) => b.title)).toEqual(['Book 1']);
    expect(last.next ?? undefined).toBeUndefined();
  });

  it('admin: clearing the authors clears their books; a nested resource cannot be replaced whole', async () => {
    const origin = new URL(mock.url).origin;
    const admin = (method: string, resource: string, body?: unknown) =>
      call(origin, method, `/__admin/records?resource=${encodeURIComponent(resource)}`, { auth: null, body });
    const author = (await call(mock.url, 'POST', '/authors', { body: { name: 'Woolf' } })).json as Row;
    await call(mock.url, 'POST', `/authors/${author.id}/books`, { body: { isbn: '978-0-00-000003', title: 'Orlando' } });
    expect(((await admin('GET', '/authors/{}/books')).json as Row[]).map((b) => b.title)).toContain('Orlando');
    expect((await admin('PUT', '/authors/{authorId}/books', [])).status).toBe(400);
    expect((await admin('DELETE', '/authors')).status).toBe(200);
    expect((await admin('GET', '/authors')).json).toEqual([]);
    expect((await admin('GET', '/authors/{}/books')).json).toEqual([]);
    const chosen = { id: '00000000-0000-4000-8000-0000000000aa', name: 'Chosen' };
    expect((await admin('PUT', '/authors', [chosen])).status).toBe(200);
    expect((await call(mock.url, 'GET', `/authors/${chosen.id}`)).json).toEqual(chosen);
  });
});

describe('two collections with the same last segment', async () => {
  const mock = await startMock({ contract: SAME_SEGMENT, fixtures: false });

  it('keeps /sales/orders and /support/orders apart', async () => {
    const sale = (await call(mock.url, 'POST', '/sales/orders', { body: { item: 'sale' } })).json as Row;
    expect(sale.id).toBe(1);
    expect((await call(mock.url, 'GET', '/support/orders')).json).toEqual([]);
    expect((await call(mock.url, 'GET', `/support/orders/${sale.id}`)).status).toBe(404);
    expect((await call(mock.url, 'GET', '/sales/orders')).json).toEqual([sale]);
  });

  it('merge-patches a sales order: null removes an optional field, the id stays', async () => {
    const made = (await call(mock.url, 'POST', '/sales/orders', { body: { item: 'lamp', note: 'fragile' } })).json as Row;
    const patch = (body: unknown) =>
      call(mock.url, 'PATCH', `/sales/orders/${made.id}`, { body, headers: { 'content-type': 'application/merge-patch+json' } });
    const patched = await patch({ note: null, item: 'desk lamp' });
    expect(patched.status).toBe(200);
    expect(patched.json).toEqual({ id: made.id, item: 'desk lamp' });
    expect((await call(mock.url, 'GET', `/sales/orders/${made.id}`)).json).toEqual({ id: made.id, item: 'desk lamp' });
    expect(
      (
        await call(mock.url, 'PATCH', '/sales/orders/999', {
          body: {},
          headers: { 'content-type': 'application/merge-patch+json' },
        })
      ).status,
    ).toBe(404);
  });
});

describe('admin endpoints for any resource', async () => {
  const mock = await startMock({ contract: EVOLVED, fixtures: false });
  const origin = new URL(mock.url).origin;
  const admin = (method: string, query: string, options: { body?: unknown; headers?: Record<string, string> } = {}) =>
    call(origin, method, `/__admin/records${query}`, { ...options, auth: null });

  it('replaces, reads and clears the orders, in the default store or one session', async () => {
    const chosen = [
      { id: 40, petId: 1, quantity: 1, status: 'delivered' },
      { id: 41, petId: 2, quantity: 3, status: 'approved' },
    ];
    const put = await admin('PUT', '?resource=/store/orders', { body: chosen });
    expect(put.status).toBe(200);
    expect((await admin('GET', '?resource=/store/orders')).json).toEqual(chosen);
    // The API sees them: a chosen id, a chosen status, and new ids continue after the largest.
    expect((await call(mock.url, 'GET', '/store/orders/41')).json).toEqual(chosen[1]);
    expect(((await call(mock.url, 'GET', '/store/orders?status=delivered')).json as Row[]).map((o) => o.id)).toEqual([40]);
    const made = await call(mock.url, 'POST', '/store/orders', { body: { petId: 5, quantity: 1 } });
    expect((made.json as Row).id).toBe(42);

    // A session gets its own state; the default store is left as it is.
    const headers = { 'x-mock-session': 'admin-a' };
    expect((await admin('PUT', '?resource=/store/orders', { body: [], headers })).status).toBe(200);
    expect((await call(mock.url, 'GET', '/store/orders', { headers })).json).toEqual([]);
    expect(((await call(mock.url, 'GET', '/store/orders')).json as Row[]).length).toBe(3);

    expect((await admin('DELETE', '?resource=/store/orders')).status).toBe(200);
    expect((await call(mock.url, 'GET', '/store/orders')).json).toEqual([]);
    expect((await admin('GET', '?resource=/store/orders')).json).toEqual([]);
  });

  it('refuses records the contract refuses, leaving the store as it was', async () => {
    await admin('PUT', '?resource=/store/orders', { body: [{ id: 1, petId: 1, quantity: 1, status: 'placed' }] });
    const bad = await admin('PUT', '?resource=/store/orders', { body: [{ id: 2, petId: 1, quantity: 0, status: 'placed' }] });
    expect(bad.status).toBe(400);
    expect((bad.json as Row).message).toMatch(/quantity/);
    const twice = await admin('PUT', '?resource=/store/orders', {
      body: [
        { id: 3, petId: 1, quantity: 1, status: 'placed' },
        { id: 3, petId: 2, quantity: 1, status: 'placed' },
      ],
    });
    expect(twice.status).toBe(400);
    expect((await admin('PUT', '?resource=/store/orders', { body: { id: 1 } })).status).toBe(400);
    expect(((await admin('GET', '?resource=/store/orders')).json as Row[]).map((o) => o.id)).toEqual([1]);
    const unknown = await admin('GET', '?resource=/nope');
    expect(unknown.status).toBe(404);
    expect((unknown.json as Row).message).toContain('/store/orders');
  });
});

describe('pets of the evolved Pet Store: the whole resource from the generic store, fixtures/pets.json kept', async () => {
  const mock = await startMock({ contract: EVOLVED });

  it('starts from fixtures/pets.json, then replaces, patches and deletes a pet', async () => {
    const rex = (await call(mock.url, 'GET', '/pets/1')).json as Row;
    expect(rex).toMatchObject({ id: 1, name: 'Rex' });
    const put = await call(mock.url, 'PUT', '/pets/1', { body: { name: 'Rex II', categoryId: 4 } });
    expect(put.status).toBe(200);
    expect(put.json).toMatchObject({ id: 1, name: 'Rex II', categoryId: 4 });
    const patched = await call(mock.url, 'PATCH', '/pets/1', {
      body: { name: 'Rex III' },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(patched.json).toMatchObject({ id: 1, name: 'Rex III', categoryId: 4 });
    const made = (await call(mock.url, 'POST', '/pets', { body: { name: 'New', categoryId: 1 } })).json as Row;
    const largest = Math.max(
      ...((await call(origin(mock.url), 'GET', '/__admin/pets', { auth: null })).json as Row[]).map((p) => p.id as number),
    );
    expect(made.id).toBeGreaterThan(1);
    expect(made.id).toBeGreaterThanOrEqual(largest);
    const removed = await call(mock.url, 'DELETE', `/pets/${made.id}`);
    expect(removed.status).toBeLessThan(300);
    expect((await call(mock.url, 'GET', `/pets/${made.id}`)).status).toBe(404);
    const listed = (await call(mock.url, 'GET', '/pets?limit=100')).json as Row[];
    expect(listed.some((p) => p.id === made.id)).toBe(false);
    expect(listed.find((p) => p.id === 1)).toMatchObject({ name: 'Rex III' });
  });

  it('takes a merge patch null as a removal (RFC 7396), not as a value its schema refuses; a required field stays', async () => {
    const made = (await call(mock.url, 'POST', '/pets', { body: { name: 'Tab', categoryId: 2, status: 'sold' } })).json as Row;
    const patch = (body: unknown) =>
      call(mock.url, 'PATCH', `/pets/${made.id}`, { body, headers: { 'content-type': 'application/merge-patch+json' } });
    const removed = await patch({ status: null });
    expect(removed.status).toBe(200);
    expect(removed.json).toEqual({ id: made.id, name: 'Tab', categoryId: 2 });
    expect((await call(mock.url, 'GET', `/pets/${made.id}`)).json).toEqual({ id: made.id, name: 'Tab', categoryId: 2 });
    const required = await patch({ name: null });
    expect(required.status).toBe(400);
    expect((required.json as Row).code).toBe('validation_failed');
    expect((await patch({ status: 'lost' })).status).toBe(400);
  });
});

describe('fixtures for any resource: an object keyed by collection path', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'resource-fixtures-'));
  const file = join(dir, 'fixtures.json');
  await writeFile(
    file,
    JSON.stringify({
      '/pets': [{ id: 5, name: 'Kept', categoryId: 1 }],
      '/store/orders': [{ id: 70, petId: 5, quantity: 2, status: 'approved' }],
    }),
  );
  const mock = await startMock({ contract: EVOLVED, fixtures: file });

  it('starts each resource from its records, and a reset brings them back', async () => {
    expect((await call(mock.url, 'GET', '/store/orders/70')).json).toMatchObject({ id: 70, status: 'approved' });
    expect(((await call(mock.url, 'GET', '/pets')).json as Row[]).map((p) => p.id)).toEqual([5]);
    expect((await call(mock.url, 'DELETE', '/store/orders/70')).status).toBeLessThan(300);
    expect((await call(mock.url, 'POST', '/store/orders', { body: { petId: 5, quantity: 1 } })).json).toMatchObject({ id: 71 });
    expect((await call(origin(mock.url), 'POST', '/__admin/reset', { auth: null })).status).toBe(200);
    expect(((await call(mock.url, 'GET', '/store/orders')).json as Row[]).map((o) => o.id)).toEqual([70]);
    // A new session starts from them too.
    const headers = { 'x-mock-session': 'fixtures-a' };
    expect((await call(mock.url, 'POST', '/store/orders', { body: { petId: 5, quantity: 1 }, headers })).status).toBe(201);
    expect(((await call(mock.url, 'GET', '/store/orders', { headers })).json as Row[]).map((o) => o.id)).toEqual([71, 70]);
  });

  it('refuses at start a keyed file naming no resource; sets aside a record the contract refuses, naming why', async () => {
    await writeFile(join(dir, 'bad.json'), JSON.stringify({ '/nope': [] }));
    await expect(
      createMockServer({ contract: EVOLVED, fixtures: join(dir, 'bad.json'), port: 0, host: '127.0.0.1' }),
    ).rejects.toThrow(/"\/nope" is no stateful resource of the contract \(known: .*\/store\/orders/);
    await writeFile(
      join(dir, 'bad2.json'),
      JSON.stringify({
        '/store/orders': [
          { id: 1, petId: 1, quantity: 0, status: 'placed' },
          { id: 2, petId: 1, quantity: 1, status: 'placed' },
        ],
      }),
    );
    const notices: string[] = [];
    const started = await createMockServer({
      contract: EVOLVED,
      fixtures: join(dir, 'bad2.json'),
      port: 0,
      host: '127.0.0.1',
      notice: (line) => notices.push(line),
    });
    try {
      expect(notices.join('\n')).toMatch(/1 record no longer fits the contract \(the first, \/store\/orders entry 0: .*quantity/);
      expect(((await call(started.url, 'GET', '/store/orders')).json as Row[]).map((o) => o.id)).toEqual([2]);
    } finally {
      await started.close();
    }
  });
});

describe('--state-file keeps every top-level resource', () => {
  it('brings orders (default store and a session) back after a restart, deletes included', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'resource-state-')), 'state.jsonl');
    const start = () => createMockServer({ contract: EVOLVED, fixtures: false, stateFile: file, port: 0, host: '127.0.0.1' });
    const first = await start();
    const headers = { 'x-mock-session': 'saved-a' };
    const kept = (await call(first.url, 'POST', '/store/orders', { body: { petId: 1, quantity: 4 } })).json as Row;
    const gone = (await call(first.url, 'POST', '/store/orders', { body: { petId: 2, quantity: 1 } })).json as Row;
    await call(first.url, 'DELETE', `/store/orders/${gone.id}`);
    const inSession = (await call(first.url, 'POST', '/store/orders', { body: { petId: 3, quantity: 1 }, headers })).json as Row;
    await first.close();
    expect(await readFile(file, 'utf8')).toContain('["store","","/store/orders"]');

    const second = await start();
    try {
      expect((await call(second.url, 'GET', '/store/orders')).json).toEqual([kept]);
      expect((await call(second.url, 'GET', '/store/orders', { headers })).json).toEqual([inSession]);
      expect(((await call(second.url, 'POST', '/store/orders', { body: { petId: 1, quantity: 1 } })).json as Row).id).toBe(
        (kept.id as number) + 1,
      );
    } finally {
      await second.close();
    }
  });
});

describe('nested resources in fixtures and the state file', () => {
  it('starts books under their author from a keyed fixtures file, keeps them in the state file, restores them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nested-fixtures-'));
    const a1 = '00000000-0000-4000-8000-0000000000a1';
    const fixtures = join(dir, 'fixtures.json');
    await writeFile(
      fixtures,
      JSON.stringify({
        '/authors': [{ id: a1, name: 'Ann' }],
        [`/authors/${a1}/books`]: [{ isbn: '978-0-00-000111', title: 'First' }],
        '/authors/00000000-0000-4000-8000-0000000000ff/books': [{ isbn: '978-0-00-000999', title: 'Orphan' }],
      }),
    );
    const state = join(dir, 'state.jsonl');
    const notices: string[] = [];
    const start = () =>
      createMockServer({
        contract: LIBRARY,
        fixtures,
        stateFile: state,
        port: 0,
        host: '127.0.0.1',
        notice: (l) => notices.push(l),
      });
    const isbns = async (url: string) =>
      ((await call(url, 'GET', `/authors/${a1}/books`)).json as { items: Row[] }).items.map((b) => b.isbn);
    const first = await start();
    expect(notices.join('\n')).toContain('its parent /authors 00000000-0000-4000-8000-0000000000ff is not among the fixtures');
    expect(await isbns(first.url)).toEqual(['978-0-00-000111']);
    expect(
      (await call(first.url, 'POST', `/authors/${a1}/books`, { body: { isbn: '978-0-00-000222', title: 'Second' } })).status,
    ).toBe(201);
    await first.close();
    expect(await readFile(state, 'utf8')).toContain(`[["${a1}"],{"isbn":"978-0-00-000222"`);
    const second = await start();
    try {
      expect(await isbns(second.url)).toEqual(['978-0-00-000222', '978-0-00-000111']);
      expect((await call(second.url, 'GET', `/authors/${a1}/books/978-0-00-000222`)).json).toMatchObject({ title: 'Second' });
    } finally {
      await second.close();
    }
  });
});

function origin(url: string): string {
  return new URL(url).origin;
}

describe('an admin replace that does not fit', async () => {
  const mock = await startMock({ maxPets: 30, maxStoreBytes: 60_000 });
  const origin = new URL(mock.url).origin;
  const replace = (records: unknown[]) => call(origin, 'PUT', '/__admin/records?resource=/pets', { auth: null, body: records });
  const pets = (count: number, name: (i: number) => string) =>
    Array.from({ length: count }, (_, i) => ({ id: i + 1, name: name(i), categoryId: 1, status: 'available' }));

  // The store was emptied before the records were stored one by one: past --max-pets the 24 fixtures were gone.
  it.each([
    ['more records than --max-pets', pets(31, (i) => `p${i}`)],
    ['records past --max-store-bytes', pets(20, (i) => `${i}`.padEnd(1500, 'x'))],
  ])('is 409 store_full for %s, the records left as they were', async (_, records) => {
    const before = await call(origin, 'GET', '/__admin/pets', { auth: null });
    const reply = await replace(records);
    expect(reply.status).toBe(409);
    expect(reply.json).toMatchObject({ code: 'store_full' });
    const after = await call(origin, 'GET', '/__admin/pets', { auth: null });
    expect((after.json as unknown[]).length).toBe(24);
    expect(after.json).toEqual(before.json);
  });

  it('still takes one that fits in the room its own records leave', async () => {
    expect((await replace(pets(30, (i) => `p${i}`))).status).toBe(200);
    expect((await replace(pets(30, (i) => `q${i}`))).status).toBe(200);
  });
});
