import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Two correct servers written apart from the mock, each in the way a framework answers where its generated contract
 * is silent: Django REST framework (test/contracts/drf-snippets: trailing slashes, a page size of its own with `next`
 * URLs, 404 and 400 it does not document, blank text refused, forms) and Spring Data REST (test/contracts/hal-orders:
 * HAL, strict about Accept, 0-based pages). Each `breakage` makes one wrong in one way.
 */
export type DrfBreakage = 'delete-does-nothing';
export type HalBreakage = 'ignores-size';

export interface StyleServer {
  readonly url: string;
  close(): Promise<void>;
}

export type Row = Record<string, unknown>;

export async function startDrfServer(key: string, breakage?: DrfBreakage): Promise<StyleServer> {
  const snippets = new Map<number, Row>();
  let nextId = 1;
  const PAGE = 3;
  return listen('', async (req, res, path, query, text) => {
    const send = (status: number, body?: unknown) => json(res, status, body);
    if (req.headers.authorization !== `Token ${key}`) {
      res.setHeader('www-authenticate', 'Token');
      return send(401, { detail: 'Authentication credentials were not provided.' });
    }
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    // DRF's MultiPartParser: each part a field.
    const parts =
      type === 'multipart/form-data'
        ? await new Response(text, { headers: { 'content-type': req.headers['content-type'] as string } })
            .formData()
            .then((form) => Object.fromEntries([...form].map(([name, value]) => [name, String(value)])))
            .catch(() => undefined)
        : undefined;
    const read = (partial: boolean): Row | undefined => {
      let body: unknown;
      if (type === 'application/x-www-form-urlencoded') body = Object.fromEntries(new URLSearchParams(text));
      else if (type === 'multipart/form-data') {
        if (parts === undefined) {
          send(400, { detail: 'Multipart form parse error' });
          return undefined;
        }
        body = parts;
      } else if (type === 'application/json') {
        try {
          body = JSON.parse(text);
        } catch {
          send(400, { detail: 'JSON parse error' });
          return undefined;
        }
      } else {
        send(415, { detail: `Unsupported media type "${type}" in request.` });
        return undefined;
      }
      const errors = drfErrors(body, partial);
      if (errors) {
        send(400, errors);
        return undefined;
      }
      const row = body as Row;
      const clean: Row = {};
      for (const name of ['title', 'code', 'language'])
        if (typeof row[name] === 'string') clean[name] = (row[name] as string).trim();
      if (row.linenos !== undefined) clean.linenos = row.linenos === true || row.linenos === 'true';
      return clean;
    };
    if (path === '/api/snippets/') {
      if (req.method === 'GET') {
        const all = [...snippets.values()];
        const pages = Math.max(1, Math.ceil(all.length / PAGE));
        const raw = query.get('page');
        const page = raw === null ? 1 : /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
        if (!(page >= 1 && page <= pages)) return send(404, { detail: 'Invalid page.' });
        const base = `http://${req.headers.host}/api/snippets/`;
        return send(200, {
          count: all.length,
          next: page < pages ? `${base}?page=${page + 1}` : null,
          previous: page > 1 ? `${base}?page=${page - 1}` : null,
          results: all.slice((page - 1) * PAGE, page * PAGE),
        });
      }
      if (req.method === 'POST') {
        const sent = read(false);
        if (!sent) return;
        const id = nextId++;
        const row = {
          id,
          created: new Date().toISOString(),
          title: '',
          linenos: false,
          language: 'python',
          owner: 'ada',
          ...sent,
        };
        snippets.set(id, row);
        return send(201, row);
      }
      res.setHeader('allow', 'GET, POST');
      return send(405, { detail: `Method "${req.method}" not allowed.` });
    }
    const item = /^\/api\/snippets\/(\d+)\/$/.exec(path);
    const found = item ? snippets.get(Number(item[1])) : undefined;
    if (!found) return send(404, { detail: 'No Snippet matches the given query.' });
    if (req.method === 'GET') return send(200, found);
    if (req.method === 'DELETE') {
      if (breakage !== 'delete-does-nothing') snippets.delete(found.id as number);
      return send(204);
    }
    const sent = read(req.method === 'PATCH');
    if (!sent) return;
    const row =
      req.method === 'PATCH'
        ? { ...found, ...sent }
        : { id: found.id, created: found.created, title: '', linenos: false, language: 'python', owner: 'ada', ...sent };
    snippets.set(found.id as number, row);
    return send(200, row);
  });
}

// Django REST framework's refusals: `{field: [messages]}`, blank text refused (allow_blank=False by default).
function drfErrors(body: unknown, partial: boolean): Row | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return { non_field_errors: ['Invalid data.'] };
  const row = body as Row;
  const errors: Row = {};
  for (const name of ['title', 'code']) {
    const value = row[name];
    if (value === undefined) continue;
    if (typeof value !== 'string') errors[name] = ['Not a valid string.'];
    else if (name === 'code' && value.trim() === '') errors[name] = ['This field may not be blank.'];
    else if (value.trim().length > 100 && name === 'title') errors[name] = ['Ensure this field has no more than 100 characters.'];
  }
  if (row.code === undefined && !partial) errors.code = ['This field is required.'];
  if (row.language !== undefined && !['python', 'javascript', 'ruby'].includes(row.language as string))
    errors.language = ['Not a valid choice.'];
  if (row.linenos !== undefined && ![true, false, 'true', 'false'].includes(row.linenos as never))
    errors.linenos = ['Must be a valid boolean.'];
  return Object.keys(errors).length > 0 ? errors : undefined;
}

export async function startHalServer(key: string, breakage?: HalBreakage): Promise<StyleServer> {
  const orders = new Map<string, Row>();
  let nextId = 1000;
  const HAL = 'application/hal+json';
  const basic = `Basic ${Buffer.from(key).toString('base64')}`;
  return listen('/api', async (req, res, path, query, text) => {
    const host = `http://${req.headers.host}`;
    const view = (o: Row) => ({ ...o, _links: { self: { href: `${host}/api/orders/${o.id}` } } });
    const send = (status: number, body?: unknown) => json(res, status, body, status < 300 ? HAL : 'application/json');
    if (req.headers.authorization !== basic) {
      res.setHeader('www-authenticate', 'Basic realm="Realm"');
      return send(401, { status: 401, error: 'Unauthorized' });
    }
    // Strict about Accept, as Spring is: an answer only in HAL is a 406 to a client that takes only plain JSON.
    const accept = req.headers.accept ?? '*/*';
    if (req.method !== 'DELETE' && !/application\/hal\+json|\*\/\*|application\/\*/.test(accept))
      return send(406, { status: 406, error: 'Not Acceptable' });
    const read = (patch: boolean): Row | undefined => {
      let body: Row;
      const type = req.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
      if (type !== 'application/json' && !(patch && type === 'application/merge-patch+json')) {
        send(415, { status: 415, error: 'Unsupported Media Type' });
        return undefined;
      }
      try {
        body = JSON.parse(text) as Row;
      } catch {
        send(400, { status: 400, error: 'Bad Request', message: 'not JSON' });
        return undefined;
      }
      const bad =
        body === null ||
        typeof body !== 'object' ||
        Array.isArray(body) ||
        (!patch && (typeof body.customer !== 'string' || typeof body.total !== 'number')) ||
        (body.customer !== undefined &&
          (typeof body.customer !== 'string' || body.customer.length < 1 || body.customer.length > 80)) ||
        (body.total !== undefined && (typeof body.total !== 'number' || body.total < 0)) ||
        (body.status !== undefined && !['NEW', 'PAID', 'SHIPPED'].includes(body.status as string)) ||
        (body.note !== undefined &&
          !(typeof body.note === 'string' && body.note.length <= 500) &&
          !(patch && body.note === null));
      if (bad) {
        send(400, { status: 400, error: 'Bad Request', message: 'invalid order' });
        return undefined;
      }
      const kept: Row = {};
      for (const name of ['customer', 'total', 'status', 'note']) if (name in body) kept[name] = body[name];
      return kept;
    };
    if (path === '/orders') {
      if (req.method === 'GET') {
        const page = Math.max(0, Math.trunc(Number(query.get('page') ?? 0)) || 0);
        const asked = Math.trunc(Number(query.get('size') ?? 20)) || 20;
        const size = breakage === 'ignores-size' ? 20 : Math.min(100, Math.max(1, asked));
        const all = [...orders.values()];
        const links: Row = { self: { href: `${host}/api/orders?page=${page}&size=${size}` } };
        if ((page + 1) * size < all.length) links.next = { href: `${host}/api/orders?page=${page + 1}&size=${size}` };
        return send(200, {
          _embedded: { orders: all.slice(page * size, (page + 1) * size).map(view) },
          _links: links,
          page: { size, totalElements: all.length, totalPages: Math.ceil(all.length / size), number: page },
        });
      }
      const sent = read(false);
      if (!sent) return;
      const order = { id: String(nextId++), status: 'NEW', ...sent, createdDate: new Date().toISOString() };
      orders.set(order.id, order);
      res.setHeader('location', `${host}/api/orders/${order.id}`);
      return send(201, view(order));
    }
    const found = orders.get(/^\/orders\/(\d+)$/.exec(path)?.[1] ?? '');
    if (!found) return json(res, 404);
    if (req.method === 'GET') return send(200, view(found));
    if (req.method === 'DELETE') {
      orders.delete(found.id as string);
      return json(res, 204);
    }
    const sent = read(req.method === 'PATCH');
    if (!sent) return;
    const order: Row = req.method === 'PATCH' ? { ...found } : { id: found.id, status: 'NEW', createdDate: found.createdDate };
    for (const [name, value] of Object.entries(sent)) {
      if (value === null) delete order[name];
      else order[name] = value;
    }
    orders.set(found.id as string, order);
    return send(200, view(order));
  });
}

export function json(res: ServerResponse, status: number, body?: unknown, type = 'application/json'): void {
  if (body === undefined) {
    res.writeHead(status, status === 204 ? {} : { 'content-length': 0 }).end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text) }).end(text);
}

export type Handle = (
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  query: URLSearchParams,
  text: string,
) => Promise<void>;

export async function listen(base: string, handle: Handle): Promise<StyleServer> {
  const server: Server = createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    const url = new URL(req.url ?? '/', 'http://x');
    if (!url.pathname.startsWith(base)) return json(res, 404, { detail: 'Not found.' });
    await handle(req, res, url.pathname.slice(base.length), url.searchParams, text);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${base}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

export type OrgBreakage = 'ignores-role-filter';

/**
 * A GitHub-like server of test/contracts/org-teams: a key in X-Api-Key or as a bearer token, 400 for a body that is
 * not JSON (HTTP's own, where the contract documents 422), 422 for a taken login or an invalid body, 404 under a
 * parent that is not there, `Link` paging.
 */
export async function startOrgServer(key: string, breakage?: OrgBreakage): Promise<StyleServer> {
  const orgs = new Map<string, Row>();
  const teams = new Map<number, Row>();
  const members = new Map<string, Row>();
  let teamSeq = 100;
  return listen('/v2', async (req, res, path, query, text) => {
    const send = (status: number, body?: unknown) => json(res, status, body);
    const fail = (status: number, message: string) => send(status, { message, documentation_url: 'https://docs.example' });
    if (req.headers['x-api-key'] !== key && req.headers.authorization !== `Bearer ${key}`) {
      res.setHeader('www-authenticate', 'Bearer');
      return fail(401, 'Requires authentication');
    }
    const read = (valid: (row: Row) => boolean): Row | undefined => {
      let body: unknown;
      if (!req.headers['content-type']?.toLowerCase().startsWith('application/json')) {
        fail(415, 'Unsupported Media Type');
        return undefined;
      }
      try {
        body = JSON.parse(text);
      } catch {
        fail(400, 'Problems parsing JSON');
        return undefined;
      }
      if (body === null || typeof body !== 'object' || Array.isArray(body) || !valid(body as Row)) {
        fail(422, 'Validation Failed');
        return undefined;
      }
      return body as Row;
    };
    const page = (all: Row[]) => {
      const per = Number(query.get('per_page') ?? 30);
      const at = Number(query.get('page') ?? 1);
      if (!Number.isInteger(per) || per < 1 || per > 100 || !Number.isInteger(at) || at < 1) return fail(422, 'Invalid paging');
      if (at * per < all.length)
        res.setHeader('link', `<http://${req.headers.host}/v2${path}?page=${at + 1}&per_page=${per}>; rel="next"`);
      return send(200, all.slice((at - 1) * per, at * per));
    };
    const [, login, teamId, memberId] =
      /^\/orgs(?:\/([^/]+)(?:\/teams(?:\/([^/]+)(?:\/members(?:\/([^/]+))?)?)?)?)?$/.exec(path) ?? [];
    const org = login === undefined ? undefined : orgs.get(login);
    if (login !== undefined && !org && !(path === '/orgs' && req.method === 'POST')) return fail(404, 'Not Found');
    const team = teamId === undefined ? undefined : teams.get(Number(teamId));
    if (teamId !== undefined && team?.org !== login) return fail(404, 'Not Found');
    if (path === '/orgs') {
      const body = read(
        (b) =>
          typeof b.login === 'string' &&
          /^[a-z0-9-]{2,39}$/.test(b.login) &&
          typeof b.name === 'string' &&
          b.name.length > 0 &&
          b.name.length <= 100,
      );
      if (!body) return;
      if (orgs.has(body.login as string)) return fail(422, 'login already_exists');
      const row = { login: body.login, name: body.name, created_at: new Date().toISOString().replace(/\.\d+Z$/, 'Z') };
      orgs.set(row.login as string, row);
      return send(201, row);
    }
    if (teamId === undefined && path.endsWith('/teams')) {
      if (req.method === 'GET') return page([...teams.values()].filter((t) => t.org === login).map(({ org: _, ...t }) => t));
      const body = read(
        (b) =>
          typeof b.name === 'string' &&
          b.name.length > 0 &&
          b.name.length <= 60 &&
          [undefined, 'secret', 'closed'].includes(b.privacy as string),
      );
      if (!body) return;
      const row = { id: teamSeq++, name: body.name, privacy: body.privacy ?? 'secret', members_count: 0, org: login };
      teams.set(row.id, row);
      const { org: _, ...shown } = row;
      return send(201, shown);
    }
    if (login !== undefined && teamId === undefined) {
      if (req.method === 'DELETE') {
        orgs.delete(login);
        for (const [id, t] of teams) if (t.org === login) teams.delete(id);
        return json(res, 204);
      }
      return send(200, org);
    }
    const shown = ({ team: _, ...m }: Row) => m;
    const memberBody = (b: Row) =>
      typeof b.username === 'string' &&
      b.username.length > 0 &&
      b.username.length <= 39 &&
      [10, 20, 30].includes(b.role as number) &&
      (b.joined_on === undefined || (typeof b.joined_on === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(b.joined_on)));
    if (path.endsWith('/members')) {
      if (req.method === 'GET') {
        const role = query.get('role');
        if (role !== null && !['10', '20', '30'].includes(role)) return fail(422, 'Invalid role');
        const since = query.get('joined_since');
        if (since !== null && !/^\d{4}-\d{2}-\d{2}$/.test(since)) return fail(422, 'Invalid date');
        const all = [...members.values()].filter(
          (m) =>
            m.team === team?.id &&
            (role === null || breakage === 'ignores-role-filter' || m.role === Number(role)) &&
            (since === null || (m.joined_on as string) >= since),
        );
        return page(all.map(shown));
      }
      const body = read(memberBody);
      if (!body) return;
      const row = {
        id: randomUUID(),
        joined_on: body.joined_on ?? new Date().toISOString().slice(0, 10),
        username: body.username,
        role: body.role,
        team: team?.id,
      };
      members.set(row.id, row);
      return send(201, shown(row));
    }
    if (memberId !== undefined) {
      const member = members.get(memberId);
      if (member?.team !== team?.id) return fail(404, 'Not Found');
      if (req.method === 'GET') return send(200, shown(member as Row));
      if (req.method === 'DELETE') {
        members.delete(memberId);
        return json(res, 204);
      }
      const body = read(memberBody);
      if (!body) return;
      const row = {
        id: memberId,
        joined_on: body.joined_on ?? (member as Row).joined_on,
        username: body.username,
        role: body.role,
        team: team?.id,
      };
      members.set(memberId, row);
      return send(200, shown(row));
    }
    if (req.method === 'GET') {
      const { org: _, ...t } = team as Row;
      return send(200, t);
    }
    if (req.method === 'DELETE') {
      teams.delete(team?.id as number);
      for (const [id, m] of members) if (m.team === team?.id) members.delete(id);
      return json(res, 204);
    }
    const body = read(
      (b) =>
        (b.name === undefined || (typeof b.name === 'string' && b.name.length > 0 && b.name.length <= 60)) &&
        [undefined, 'secret', 'closed'].includes(b.privacy as string),
    );
    if (!body) return;
    const row = team as Row;
    for (const name of ['name', 'privacy']) if (body[name] !== undefined) row[name] = body[name];
    const { org: _, ...t } = row;
    return send(200, t);
  });
}
