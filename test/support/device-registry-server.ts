import { json, listen, type Row, type StyleServer } from './generated-style-servers.js';

/**
 * A correct server of test/contracts/device-labels written apart from the mock, choosing where the contract is
 * silent: ids from 1000, every device answered with `labels` (`{}` when none) and `location` (null when none) and
 * no `power_class` until one is set, lists oldest first, merge patches only as application/merge-patch+json (415
 * otherwise), and a ping of a missing device refused with 404. Each `breakage` makes it wrong in one way.
 */
export type DeviceBreakage = 'label-null-kept' | 'labels-replaced';

const SERIAL = /^[A-Z0-9]{8,12}$/;
const TIERS = [1, 2, 5];
const CLASSES = ['0', '1', '2', '3'];

function labelsProblem(v: unknown, nulls: boolean): string | undefined {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return 'labels is an object';
  const entries = Object.entries(v as Row);
  if (entries.length > 16) return 'at most 16 labels';
  const bad = entries.find(([, l]) => !(nulls && l === null) && (typeof l !== 'string' || [...l].length > 63));
  return bad ? `label ${bad[0]} is short text` : undefined;
}

function locationProblem(v: unknown): string | undefined {
  if (v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) return 'location is an object or null';
  const { site, rack } = v as Row;
  if (typeof site !== 'string' || site.length < 1 || [...site].length > 40) return 'location.site is required';
  if (rack !== undefined && (!Number.isInteger(rack) || (rack as number) < 0 || (rack as number) > 2147483647))
    return 'location.rack is a whole number';
  return undefined;
}

function fieldProblem(b: Row, patch: boolean): string | undefined {
  if (b.tier !== undefined && !TIERS.includes(b.tier as number)) return 'tier is 1, 2 or 5';
  if (b.power_class !== undefined && !CLASSES.includes(b.power_class as string)) return 'power_class is 0 to 3';
  const labels = b.labels === undefined ? undefined : labelsProblem(b.labels, patch);
  return labels ?? (b.location === undefined ? undefined : locationProblem(b.location));
}

export async function startDeviceServer(key: string, breakage?: DeviceBreakage): Promise<StyleServer> {
  const devices = new Map<number, Row>();
  let next = 1000;
  return listen('/fleet', async (req, res, path, query, text) => {
    const send = (status: number, body?: unknown) => json(res, status, body);
    const problem = (status: number, title: string, detail?: string) =>
      json(res, status, { type: 'about:blank', title, status, ...(detail ? { detail } : {}) }, 'application/problem+json');
    if (req.headers['x-fleet-key'] !== key) return problem(401, 'Unauthorized');
    const body = (media: string): Row | undefined => {
      if ((req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() !== media) {
        problem(415, 'Unsupported Media Type', `send ${media}`);
        return undefined;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        problem(400, 'Bad Request', 'body is not JSON');
        return undefined;
      }
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
        problem(400, 'Bad Request', 'body is an object');
        return undefined;
      }
      return parsed as Row;
    };
    const device = (b: Row, id: number, registered: string): Row => ({
      id,
      registered_at: registered,
      serial: b.serial,
      tier: b.tier,
      ...(b.power_class === undefined ? {} : { power_class: b.power_class }),
      labels: b.labels ?? {},
      location: b.location ?? null,
    });
    if (path === '/devices' || path === '/devices/') {
      if (req.method === 'GET' || req.method === 'HEAD') {
        const page = query.get('page') ?? '1';
        const size = query.get('page_size') ?? '25';
        const tier = query.get('tier');
        const power = query.get('power_class');
        if (!/^\d+$/.test(page) || Number(page) < 1 || Number(page) > 2147483647) return problem(400, 'Bad Request', 'page');
        if (!/^\d+$/.test(size) || Number(size) < 1 || Number(size) > 100) return problem(400, 'Bad Request', 'page_size');
        if (tier !== null && !TIERS.map(String).includes(tier)) return problem(400, 'Bad Request', 'tier');
        if (power !== null && !CLASSES.includes(power)) return problem(400, 'Bad Request', 'power_class');
        const all = [...devices.values()].filter(
          (d) => (tier === null || String(d.tier) === tier) && (power === null || d.power_class === power),
        );
        const from = (Number(page) - 1) * Number(size);
        res.setHeader('x-total-count', String(all.length));
        return send(200, all.slice(from, from + Number(size)));
      }
      if (req.method === 'POST') {
        const b = body('application/json');
        if (!b) return;
        if (typeof b.serial !== 'string' || !SERIAL.test(b.serial)) return problem(400, 'Bad Request', 'serial');
        if (b.tier === undefined) return problem(400, 'Bad Request', 'tier is required');
        const wrong = fieldProblem(b, false);
        if (wrong) return problem(400, 'Bad Request', wrong);
        const made = device(b, next++, new Date().toISOString());
        devices.set(made.id as number, made);
        return send(201, made);
      }
      res.setHeader('allow', 'GET, HEAD, POST');
      return problem(405, 'Method Not Allowed');
    }
    const m = /^\/devices\/([^/]+)(\/ping)?$/.exec(path);
    const id = m && /^[1-9]\d{0,9}$/.test(m[1] as string) ? Number(m[1]) : Number.NaN;
    if (!m || Number.isNaN(id) || id > 2147483647) return problem(404, 'Not Found');
    const found = devices.get(id);
    if (m[2]) {
      if (req.method !== 'POST') {
        res.setHeader('allow', 'POST');
        return problem(405, 'Method Not Allowed');
      }
      if (!found) return problem(404, 'Not Found');
      res.setHeader('deprecation', 'true');
      return send(202);
    }
    if (req.method === 'GET' || req.method === 'HEAD') return found ? send(200, found) : problem(404, 'Not Found');
    if (req.method === 'PATCH') {
      if (!found) return problem(404, 'Not Found');
      const b = body('application/merge-patch+json');
      if (!b) return;
      if (Object.keys(b).length === 0) return problem(400, 'Bad Request', 'an empty patch');
      const wrong = fieldProblem(b, true);
      if (wrong) return problem(400, 'Bad Request', wrong);
      const merged: Row = { ...found };
      for (const field of ['tier', 'power_class', 'location'] as const) {
        if (b[field] === undefined) continue;
        if (b[field] === null && field !== 'location') delete merged[field];
        else merged[field] = b[field];
      }
      if (b.labels !== undefined) {
        const sent = b.labels as Record<string, string | null>;
        const labels: Row = breakage === 'labels-replaced' ? {} : { ...(found.labels as Row) };
        for (const [name, value] of Object.entries(sent)) {
          if (value === null && breakage !== 'label-null-kept') delete labels[name];
          else if (value !== null) labels[name] = value;
        }
        merged.labels = labels;
      }
      devices.set(id, merged);
      return send(200, merged);
    }
    if (req.method === 'DELETE') {
      if (!found) return problem(404, 'Not Found');
      devices.delete(id);
      return send(204);
    }
    res.setHeader('allow', 'GET, HEAD, PATCH, DELETE');
    return problem(405, 'Method Not Allowed');
  });
}
