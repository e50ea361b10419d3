import { randomBytes, randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { json, listen, type Row, type StyleServer } from './generated-style-servers.js';

/**
 * Correct servers written by hand apart from the mock, each choosing where its contract is silent as such servers
 * do: test/contracts/webhook-subscriptions (OpenAPI 3.1: a create answered 201 with a Location and no body, a
 * delete answered 204 where 200 is documented too, newest first, unknown fields refused, charset on the media type,
 * extra fields and headers), test/contracts/store-inventory (items keyed by a store and a SKU the client names,
 * merge patch or JSON Patch, lists sorted by SKU) and test/contracts/stripe-customers (form writes, prefixed ids,
 * an update that is a POST to the record, a delete that answers a stub). Each `breakage` makes one wrong in one way.
 */
export type SubscriptionBreakage = 'put-merges' | 'location-elsewhere';
export type InventoryBreakage = 'item-of-any-store' | 'merge-null-ignored';

const fail = (res: ServerResponse, status: number, error: string) => json(res, status, { error, details: null });

export async function startSubscriptionsServer(key: string, breakage?: SubscriptionBreakage): Promise<StyleServer> {
  const subscriptions = new Map<string, Row>();
  const events = ['order.created', 'order.paid', 'order.refunded'];
  const known = new Set(['url', 'events', 'description', 'status', 'retry_window']);
  const problem = (b: unknown): string | undefined => {
    if (b === null || typeof b !== 'object' || Array.isArray(b)) return 'body must be an object';
    const row = b as Row;
    if (Object.keys(row).some((k) => !known.has(k))) return 'unknown fields';
    if (typeof row.url !== 'string' || row.url.length > 500 || !/^[a-z][a-z0-9+.-]*:\S*$/i.test(row.url))
      return 'url must be a URI';
    const sent = row.events;
    if (!Array.isArray(sent) || sent.length < 1 || sent.some((e) => !events.includes(e)) || new Set(sent).size !== sent.length)
      return 'events must be distinct known events';
    const d = row.description;
    if (d !== undefined && d !== null && (typeof d !== 'string' || [...d].length > 200))
      return 'description is short text or null';
    if (row.status !== undefined && row.status !== 'active' && row.status !== 'paused') return 'status is active or paused';
    const w = row.retry_window;
    if (w !== undefined && (!Array.isArray(w) || w.length !== 2 || w.some((h) => !Number.isInteger(h) || h < 0 || h > 23)))
      return 'retry_window is two hours';
    return undefined;
  };
  const record = (id: string, b: Row, createdAt: string): Row => ({
    id,
    object: 'subscription',
    url: b.url,
    events: b.events,
    description: b.description ?? null,
    status: b.status ?? 'active',
    ...(b.retry_window ? { retry_window: b.retry_window } : {}),
    created_at: createdAt,
    secret_hint: `whsec_${id.slice(0, 4)}`,
  });
  return listen('/hooks/v2', async (req, res, path, query, text) => {
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      for (const [name, value] of Object.entries({ 'x-request-id': randomUUID(), ...headers })) res.setHeader(name, value);
      json(res, status, body, 'application/json; charset=utf-8');
    };
    if (req.headers.authorization !== `Bearer ${key}`) {
      res.setHeader('www-authenticate', 'Bearer');
      return fail(res, 401, 'bearer token required');
    }
    const body = (): Row | undefined => {
      if ((req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() !== 'application/json') {
        fail(res, 415, 'send application/json');
        return undefined;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      const wrong = parsed === undefined ? 'body is not JSON' : problem(parsed);
      if (wrong) fail(res, 400, wrong);
      return wrong ? undefined : (parsed as Row);
    };
    if (path === '/subscriptions') {
      if (req.method === 'GET') {
        const limit = query.get('limit') ?? '25';
        const offset = query.get('offset') ?? '0';
        const status = query.get('status');
        if (!/^\d+$/.test(limit) || Number(limit) < 1 || Number(limit) > 100 || !/^\d+$/.test(offset))
          return fail(res, 400, 'limit is 1 to 100, offset 0 or more');
        if (status !== null && status !== 'active' && status !== 'paused') return fail(res, 400, 'status is active or paused');
        // Newest first: the contract names no order.
        const all = [...subscriptions.values()].reverse().filter((s) => status === null || s.status === status);
        return send(200, { items: all.slice(Number(offset), Number(offset) + Number(limit)), total: all.length });
      }
      if (req.method === 'POST') {
        const sent = body();
        if (!sent) return;
        const id = randomUUID();
        subscriptions.set(id, record(id, sent, new Date().toISOString()));
        res.setHeader('location', `/hooks/v2/subscriptions/${breakage === 'location-elsewhere' ? randomUUID() : id}`);
        return json(res, 201);
      }
      return fail(res, 405, 'not allowed');
    }
    const found = /^\/subscriptions\/([^/]+)$/.exec(path);
    const current = found ? subscriptions.get((found[1] as string).toLowerCase()) : undefined;
    if (!found) return fail(res, 404, 'no such path');
    if (!current) return fail(res, 404, 'no such subscription');
    const id = current.id as string;
    if (req.method === 'GET') return send(200, current);
    if (req.method === 'PUT') {
      const sent = body();
      if (!sent) return;
      const next = breakage === 'put-merges' ? { ...current, ...sent } : record(id, sent, current.created_at as string);
      subscriptions.set(id, next);
      return send(200, next, { 'content-location': `/hooks/v2/subscriptions/${id}` });
    }
    if (req.method === 'DELETE') {
      subscriptions.delete(id);
      return json(res, 204);
    }
    return fail(res, 405, 'not allowed');
  });
}

export async function startInventoryServer(key: string, breakage?: InventoryBreakage): Promise<StyleServer> {
  const stores = new Map<number, Row>();
  const items = new Map<string, Row>(); // `${store} ${sku}`
  let nextStore = 1000;
  const SKU = /^[A-Z]{3}-[0-9]{4}$/;
  const categories = ['produce', 'dairy', 'bakery', 'frozen'];
  const itemProblem = (v: Row): string | undefined => {
    if (typeof v.sku !== 'string' || !SKU.test(v.sku)) return 'sku must look like ABC-0001';
    if (typeof v.name !== 'string' || v.name.length < 1 || [...v.name].length > 120) return 'name must be 1 to 120 characters';
    if (!categories.includes(v.category as string)) return 'category is not known';
    const q = v.quantity;
    if (typeof q !== 'number' || !Number.isInteger(q) || q < 0 || q > 100000) return 'quantity must be 0 to 100000';
    const p = v.price_cents;
    if (p !== undefined && (typeof p !== 'number' || !Number.isInteger(p) || p < 0)) return 'price_cents must be 0 or more';
    return undefined;
  };
  return listen('/inventory', async (req, res, path, query, text) => {
    const send = (status: number, body?: unknown) => {
      res.setHeader('x-ratelimit-remaining', '4999');
      json(res, status, body);
    };
    const refuse = (status: number, message: string) => json(res, status, { code: String(status), message });
    if (req.headers['x-api-key'] !== key) return refuse(401, 'a valid X-Api-Key is required');
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    let sent: unknown;
    try {
      sent = text === '' ? undefined : JSON.parse(text);
    } catch {
      return refuse(400, 'body is not JSON');
    }
    if (req.method === 'POST' && type !== 'application/json') return refuse(415, 'send application/json');
    const isObject = (v: unknown): v is Row => v !== null && typeof v === 'object' && !Array.isArray(v);
    const [, storeText, rest] = /^\/stores(?:\/([^/]+))?(\/.*)?$/.exec(path) ?? [];
    if (path === '/stores') {
      if (req.method === 'GET') return send(200, [...stores.values()]);
      if (!isObject(sent) || typeof sent.name !== 'string' || sent.name.length < 1 || [...sent.name].length > 80)
        return refuse(400, 'name must be 1 to 80 characters');
      if (sent.city !== undefined && (typeof sent.city !== 'string' || [...sent.city].length > 80))
        return refuse(400, 'city is too long');
      const store = {
        id: nextStore++,
        name: sent.name,
        ...(sent.city !== undefined ? { city: sent.city } : {}),
        opened_at: new Date().toISOString(),
      };
      stores.set(store.id, store);
      res.setHeader('location', `/inventory/stores/${store.id}`);
      return send(201, store);
    }
    if (storeText === undefined || !/^\d+$/.test(storeText)) return refuse(400, 'storeId must be a positive integer');
    const store = stores.get(Number(storeText));
    if (!store) return refuse(404, 'no such store');
    if (rest === undefined) {
      if (req.method === 'GET') return send(200, store);
      stores.delete(store.id as number);
      for (const k of items.keys()) if (k.startsWith(`${store.id} `)) items.delete(k);
      return send(204);
    }
    if (rest === '/items') {
      if (req.method === 'GET') {
        const category = query.get('category');
        if (category !== null && !categories.includes(category)) return refuse(400, 'category is not known');
        const listed = [...items.entries()]
          .filter(([k, i]) => k.startsWith(`${store.id} `) && (category === null || i.category === category))
          .map(([, i]) => i)
          .sort((a, b) => ((a.sku as string) < (b.sku as string) ? -1 : 1));
        return send(200, listed);
      }
      if (!isObject(sent)) return refuse(400, 'body must be an object');
      const wrong = itemProblem(sent);
      if (wrong) return refuse(400, wrong);
      if (items.has(`${store.id} ${sent.sku}`)) return refuse(409, 'this store has an item of that sku');
      const { sku, name, category, quantity, price_cents } = sent;
      const item = { sku, name, category, quantity, ...(price_cents !== undefined ? { price_cents } : {}) };
      items.set(`${store.id} ${sku}`, item);
      res.setHeader('location', `/inventory/stores/${store.id}/items/${sku}`);
      return send(201, item);
    }
    const sku = decodeURIComponent(rest.slice('/items/'.length));
    if (!SKU.test(sku)) return refuse(400, 'sku must look like ABC-0001');
    const at =
      breakage === 'item-of-any-store'
        ? [...items.keys()].find((k) => k.endsWith(` ${sku}`))
        : items.has(`${store.id} ${sku}`)
          ? `${store.id} ${sku}`
          : undefined;
    const item = at === undefined ? undefined : items.get(at);
    if (at === undefined || !item) return refuse(404, 'no such item');
    if (req.method === 'GET') return send(200, item);
    if (req.method === 'DELETE') {
      items.delete(at);
      return send(204);
    }
    const next: Row = { ...item };
    if (type === 'application/json-patch+json') {
      // RFC 6902 on a flat record: each path names a field.
      for (const op of Array.isArray(sent) ? (sent as Row[]) : [{}]) {
        const field = typeof op.path === 'string' && /^\/[a-z_]+$/.test(op.path) ? op.path.slice(1) : undefined;
        if (field === undefined || field === 'sku') return refuse(422, 'path must name a field other than sku');
        if (op.op === 'remove') delete next[field];
        else if (op.op === 'add' || op.op === 'replace') next[field] = op.value;
        else return refuse(400, `op ${String(op.op)} is not supported`);
      }
    } else if (type === 'application/merge-patch+json') {
      if (!isObject(sent)) return refuse(400, 'a merge patch is an object');
      for (const [name, value] of Object.entries(sent)) {
        if (name === 'sku' && value !== item.sku) return refuse(400, 'the sku of an item cannot change');
        if (value !== null) next[name] = value;
        else if (breakage !== 'merge-null-ignored') delete next[name];
      }
    } else return refuse(415, 'send a merge patch or a JSON Patch');
    const wrong = itemProblem(next);
    if (wrong) return refuse(type === 'application/json-patch+json' ? 422 : 400, wrong);
    items.set(at, next);
    return send(200, next);
  });
}

export async function startStripeLikeServer(key: string): Promise<StyleServer> {
  const customers = new Map<string, Row>();
  const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const lengths: Record<string, number> = { email: 512, name: 256, description: 5000 };
  return listen('/v1', async (req, res, path, query, text) => {
    const send = (status: number, body: unknown) => {
      res.setHeader('request-id', `req_${randomBytes(7).toString('hex')}`);
      json(res, status, body, 'application/json; charset=utf-8');
    };
    const refuse = (status: number, code: string, message: string) =>
      json(res, status, { error: { type: 'invalid_request_error', code, message } });
    if (req.headers.authorization !== `Bearer ${key}`) {
      res.setHeader('www-authenticate', 'Bearer realm="Stripe"');
      return refuse(401, 'api_key_invalid', 'Invalid API Key provided');
    }
    // a=1&metadata[plan]=gold: the form's deepObject, as payment APIs read it.
    const form = (): Row | string => {
      const out: Row = {};
      for (const [name, value] of new URLSearchParams(text)) {
        const meta = /^metadata\[([^\]]*)\]$/.exec(name);
        if (meta) out.metadata = { ...(out.metadata as Row | undefined), [meta[1] as string]: value };
        else if (lengths[name] !== undefined && [...value].length <= (lengths[name] as number)) out[name] = value;
        else if (name === 'balance' && /^-?\d+$/.test(value)) out.balance = Number(value);
        else return `Invalid or unknown parameter: ${name}`;
      }
      return out;
    };
    if (path === '/customers') {
      if (req.method === 'GET') {
        const limit = query.get('limit') ?? '10';
        if (!/^\d+$/.test(limit) || Number(limit) < 1 || Number(limit) > 100) return refuse(400, 'parameter_invalid', 'limit');
        let all = [...customers.values()].reverse();
        const email = query.get('email');
        if (email !== null) all = all.filter((c) => c.email === email);
        const after = query.get('starting_after');
        if (after !== null) {
          const at = all.findIndex((c) => c.id === after);
          if (at < 0) return refuse(400, 'resource_missing', `No such customer: '${after}'`);
          all = all.slice(at + 1);
        }
        return send(200, {
          object: 'list',
          data: all.slice(0, Number(limit)),
          has_more: all.length > Number(limit),
          url: '/v1/customers',
        });
      }
      const sent = form();
      if (typeof sent === 'string') return refuse(400, 'parameter_unknown', sent);
      const id = `cus_${[...randomBytes(14)].map((b) => ALNUM[b % 62]).join('')}`;
      const customer = {
        id,
        object: 'customer',
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        email: null,
        name: null,
        description: null,
        balance: 0,
        metadata: {},
        default_source: null,
        ...sent,
      };
      customers.set(id, customer);
      return send(200, customer);
    }
    const customer = customers.get(path.slice('/customers/'.length));
    if (!customer) return refuse(404, 'resource_missing', 'No such customer');
    if (req.method === 'GET') {
      if (query.getAll('expand[]').some((e) => e !== 'default_source')) return refuse(400, 'parameter_invalid', 'expand');
      return send(200, customer);
    }
    if (req.method === 'DELETE') {
      customers.delete(customer.id as string);
      return send(200, { id: customer.id, object: 'customer', deleted: true });
    }
    const sent = form();
    if (typeof sent === 'string') return refuse(400, 'parameter_unknown', sent);
    const { metadata, ...fields } = sent;
    Object.assign(customer, fields, { metadata: { ...(customer.metadata as Row), ...(metadata as Row | undefined) } });
    return send(200, customer);
  });
}
