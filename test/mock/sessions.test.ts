import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMockServer } from '../../src/mock/create-mock-server.js';
import { call } from '../support/http.js';
import { startMock } from '../support/start-mock.js';

type PetJson = { id: number; name: string };

describe('X-Mock-Session', async () => {
  const mock = await startMock({ maxSessions: 3 });
  const origin = new URL(mock.url).origin;
  const as = (session: string) => ({ headers: { 'x-mock-session': session } });
  const names = async (session?: string) =>
    ((await call(mock.url, 'GET', '/pets?limit=100', session ? as(session) : {})).json as PetJson[]).map((p) => p.name);

  it('gives each session its own store, started from the fixtures', async () => {
    const fixtureCount = mock.store.size;
    const created = await call(mock.url, 'POST', '/pets', { body: { name: 'Only A', categoryId: 1 }, ...as('worker-a') });
    expect(created.status).toBe(201);
    expect(await names('worker-a')).toContain('Only A');
    expect(await names('worker-b')).not.toContain('Only A');
    expect(await names()).not.toContain('Only A');
    expect(await names('worker-b')).toHaveLength(fixtureCount);
    const id = (created.json as PetJson).id;
    expect((await call(mock.url, 'GET', `/pets/${id}`, as('worker-a'))).status).toBe(200);
    expect((await call(mock.url, 'GET', `/pets/${id}`, as('worker-b'))).status).toBe(404);
  });

  it('resets one session with the header, leaving the others alone', async () => {
    await call(mock.url, 'POST', '/pets', { body: { name: 'B keeps', categoryId: 1 }, ...as('worker-b') });
    const reset = await call(origin, 'POST', '/__admin/reset', { auth: null, ...as('worker-a') });
    expect(reset.status).toBe(200);
    expect(await names('worker-a')).not.toContain('Only A');
    expect(await names('worker-b')).toContain('B keeps');
  });

  it('filters the journal by session', async () => {
    await call(mock.url, 'GET', '/pets/1', as('worker-c'));
    const entries = (await call(origin, 'GET', '/__admin/requests?session=worker-c')).json as { session: string }[];
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((e) => e.session === 'worker-c')).toBe(true);
    // A name no session can have is refused, not answered with an empty journal that looks like a quiet session.
    const bad = await call(origin, 'GET', `/__admin/requests?session=${encodeURIComponent('worker c<script>')}`);
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ code: 'invalid_session', message: expect.stringContaining('query.session') });
  });

  it('refuses a session past --max-sessions with 409 too_many_sessions, and a bad name with 400', async () => {
    const create = (session: string) => call(mock.url, 'POST', '/pets', { body: { name: 'Rex', categoryId: 1 }, ...as(session) });
    // worker-b is one already; reads made none.
    expect((await create('worker-c')).status).toBe(201);
    expect((await create('worker-d')).status).toBe(201);
    const refused = await create('worker-e');
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ code: 'too_many_sessions', status: 409 });
    // A message is not kept: it makes no session, and is never refused for want of room.
    const sessions = async () =>
      ((await call(origin, 'GET', '/__admin/health', { auth: null })).json as { sessions: number }).sessions;
    const before = await sessions();
    const message = await call(mock.url, 'POST', '/messages', { body: { message: 'hi' }, ...as('worker-m') });
    expect(message.status).toBe(202);
    expect(await sessions()).toBe(before);
    // A read of a session not made yet sees the fixtures, and is never refused for want of room.
    expect(await names('worker-z')).toHaveLength(mock.store.size);
    // A reset with the header drops that session, which frees its place.
    await call(origin, 'POST', '/__admin/reset', { auth: null, ...as('worker-d') });
    expect((await create('worker-e')).status).toBe(201);
    const bad = await call(mock.url, 'GET', '/pets', as('no spaces allowed'));
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ code: 'invalid_session' });
  });

  it('makes no session for a create the memory budget refuses', async () => {
    // Room for the fixtures (shared by every store) and small pets, not for a pet with a 10 KB name.
    const tight = await createMockServer({ port: 0, host: '127.0.0.1', maxStoreBytes: 15_000 });
    try {
      const health = async () =>
        ((await call(new URL(tight.url).origin, 'GET', '/__admin/health', { auth: null })).json as { sessions: number }).sessions;
      const refused = await call(tight.url, 'POST', '/pets', {
        body: { name: 'x'.repeat(10_000), categoryId: 1 },
        ...as('tight-a'),
      });
      expect(refused.json).toMatchObject({ code: 'store_full', status: 409 });
      expect(await health()).toBe(0);
      expect((await call(tight.url, 'POST', '/pets', { body: { name: 'small', categoryId: 1 }, ...as('tight-a') })).status).toBe(
        201,
      );
      expect(await health()).toBe(1);
    } finally {
      await tight.close();
    }
  });

  it('drops every session on a reset without the header', async () => {
    await call(origin, 'POST', '/__admin/reset', { auth: null });
    expect(((await call(origin, 'GET', '/__admin/health')).json as { sessions: number }).sessions).toBe(0);
    expect(await names('worker-b')).not.toContain('B keeps');
  });

  it('lets a page on another origin send the header (CORS)', async () => {
    const preflight = await call(mock.url, 'OPTIONS', '/pets', {
      auth: null,
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET' },
    });
    expect(String(preflight.headers['access-control-allow-headers'])).toContain('X-Mock-Session');
  });
});

describe('sessions and the memory budget', async () => {
  const mock = await startMock({ maxStoreBytes: 20_000 });

  it('counts every session against the one budget, and never refuses a read for it', async () => {
    let status = 201;
    for (let i = 0; i < 20 && status === 201; i++) {
      const body = { name: 'Rex', categoryId: 1 };
      status = (await call(mock.url, 'POST', '/pets', { body, headers: { 'x-mock-session': `s${i}` } })).status;
    }
    expect(status).toBe(409);
    expect(mock.store.size).toBeGreaterThan(0);
    const read = await call(mock.url, 'GET', '/pets?limit=1', { headers: { 'x-mock-session': 'never-written' } });
    expect(read.status).toBe(200);
  });
});

describe('--max-sessions 0', async () => {
  const mock = await startMock({ maxSessions: 0 });

  it('turns sessions off: the header is ignored and every request works on the one store', async () => {
    const created = await call(mock.url, 'POST', '/pets', {
      body: { name: 'Shared', categoryId: 1 },
      headers: { 'x-mock-session': 'w1' },
    });
    expect(created.status).toBe(201);
    const listed = (await call(mock.url, 'GET', '/pets?limit=100')).json as PetJson[];
    expect(listed.map((p) => p.name)).toContain('Shared');
    // The admin dump ignores it too, as reset does.
    const dumped = await call(new URL(mock.url).origin, 'GET', '/__admin/pets', {
      auth: null,
      headers: { 'x-mock-session': 'w1' },
    });
    expect(dumped.status).toBe(200);
    expect((dumped.json as PetJson[]).map((p) => p.name)).toContain('Shared');
  });
});

describe('X-Mock-Session with large fixtures', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'shared-fixtures-'));

  it('shares the fixtures between sessions instead of copying them into each (a budget for them once holds ten sessions)', async () => {
    const fixtures = join(dir, 'large.json');
    const pets = Array.from({ length: 200 }, (_, i) => ({ id: i + 1, name: `${i}-${'n'.repeat(2000)}`, categoryId: 1 }));
    await writeFile(fixtures, JSON.stringify(pets));
    // About 0.86 MB for the fixtures rendered: twice that (a copy per session) would not fit.
    const mock = await createMockServer({ port: 0, host: '127.0.0.1', fixtures, maxStoreBytes: 1_200_000 });
    try {
      for (let i = 0; i < 10; i++) {
        const created = await call(mock.url, 'POST', '/pets', {
          body: { name: `own ${i}`, categoryId: 1 },
          headers: { 'x-mock-session': `s${i}` },
        });
        expect(created.status).toBe(201);
      }
      const listed = (await call(mock.url, 'GET', '/pets?limit=2', { headers: { 'x-mock-session': 's3' } })).json as PetJson[];
      expect(listed.map((p) => p.name)).toEqual(['own 3', pets[199]?.name]);
      expect((await call(mock.url, 'GET', '/pets?limit=1', { headers: { 'x-mock-session': 's4' } })).json).toMatchObject([
        { name: 'own 4' },
      ]);
    } finally {
      await mock.close();
    }
  });
});
