import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEV_API_KEY } from '../../src/mock/mock-options.js';

/**
 * A node:http server of test/contracts/singletons (workspace settings, projects, each project's settings), correct
 * unless broken in one way: 'put-ignored' answers a PUT with what it sent but keeps nothing, 'patch-replaces' stores
 * a PATCH's body as the whole record, 'settings-shared' keeps one settings record for every project,
 * 'settings-unchecked' keeps any object a PUT or PATCH of /settings sends, with or without the key.
 */
export type SingletonBreakage = 'put-ignored' | 'patch-replaces' | 'settings-shared' | 'settings-unchecked';

export interface SingletonServer {
  readonly url: string;
  close(): Promise<void>;
}

type Row = Record<string, unknown>;

const SETTINGS: Row = { theme: 'light', pageSize: 20, signature: 'Sent from Workspace' };
const PROJECT_SETTINGS: Row = { visibility: 'private', defaultBranch: 'main', updatedAt: '2026-01-05T09:00:00Z' };
const SETTINGS_FIELDS: Readonly<Record<string, (v: unknown) => boolean>> = {
  theme: (v) => v === 'light' || v === 'dark',
  pageSize: (v) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 100,
  signature: (v) => typeof v === 'string' && v.length <= 200,
};

export async function startSingletonServer(breakage?: SingletonBreakage): Promise<SingletonServer> {
  let settings: Row = { ...SETTINGS };
  const projects = new Map<number, Row>();
  const projectSettings = new Map<number, Row>();
  let nextId = 1;
  const settingsOf = (id: number) => projectSettings.get(breakage === 'settings-shared' ? 0 : id) ?? { ...PROJECT_SETTINGS };

  const handle = (method: string, path: string, body: unknown): [number, unknown?] => {
    if (path === '/settings') {
      if (method === 'GET') return [200, settings];
      if (!isRow(body)) return [400, error('body')];
      const next = method === 'PATCH' ? merged(settings, body) : body;
      if (breakage === 'settings-unchecked') settings = next;
      if (!validSettings(next)) return [400, error('settings')];
      if (method === 'PATCH' && breakage === 'patch-replaces') settings = body;
      else if (method === 'PUT' && breakage === 'put-ignored') return [200, next];
      else settings = next;
      return [200, settings];
    }
    if (path === '/projects') {
      if (method === 'GET') return [200, [...projects.values()]];
      if (!isRow(body) || typeof body.name !== 'string') return [400, error('name')];
      const project = { id: nextId++, name: body.name };
      projects.set(project.id, project);
      return [201, project];
    }
    const match = /^\/projects\/(\d+)(\/settings)?$/.exec(path);
    const id = Number(match?.[1]);
    if (!match || !projects.has(id)) return [404, error('no such project')];
    if (match[2] === undefined) {
      if (method === 'DELETE') {
        projects.delete(id);
        projectSettings.delete(id);
        return [204];
      }
      return [200, projects.get(id)];
    }
    const current = settingsOf(id);
    if (method === 'GET') return [200, current];
    if (!isRow(body)) return [400, error('body')];
    const { updatedAt: _, ...sent } = body;
    const next = { ...(method === 'PATCH' ? merged(current, sent) : sent), updatedAt: current.updatedAt };
    if (!validProjectSettings(next)) return [400, error('settings')];
    projectSettings.set(breakage === 'settings-shared' ? 0 : id, next);
    return [200, next];
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      text += chunk;
    });
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]?.replace(/^\/v1/, '') ?? '';
      const unchecked = breakage === 'settings-unchecked' && path === '/settings' && req.method !== 'GET';
      const [status, answer] =
        req.headers.authorization !== `Bearer ${DEV_API_KEY}` && !unchecked
          ? [401, error('key')]
          : handle(req.method ?? 'GET', path, parse(text));
      // RFC 6750 §3: a 401 names the scheme it asks for.
      if (status === 401) res.setHeader('www-authenticate', 'Bearer');
      if (answer === undefined) res.writeHead(status).end();
      else res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

function merged(target: Row, patch: Row): Row {
  const result = { ...target };
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete result[name];
    else result[name] = value;
  }
  return result;
}

function validSettings(row: Row): boolean {
  return (
    'theme' in row && 'pageSize' in row && Object.entries(row).every(([name, value]) => SETTINGS_FIELDS[name]?.(value) === true)
  );
}

function validProjectSettings(row: Row): boolean {
  const { visibility, defaultBranch, description } = row;
  return (
    ['private', 'internal', 'public'].includes(visibility as string) &&
    typeof defaultBranch === 'string' &&
    defaultBranch.length <= 100 &&
    (description === undefined || (typeof description === 'string' && description.length <= 500))
  );
}

function isRow(value: unknown): value is Row {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function parse(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

function error(message: string): Row {
  return { code: 'invalid', message };
}
