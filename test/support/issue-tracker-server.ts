import { json, listen, type Row, type StyleServer } from './generated-style-servers.js';

/**
 * A correct server of test/contracts/repo-issues written apart from the mock, choosing where the contract is
 * silent: issues are numbered per repository from 1 (the mock numbers across them), any owner and repository
 * exist, `state` is left out until set, lists are oldest first behind an opaque cursor, validation errors are 422
 * and answers carry `charset=utf-8`. Each `breakage` makes it wrong in one way.
 */
export type IssueBreakage = 'put-ignored' | 'assignees-dropped' | 'delete-keeps-listed';

const OWNER = /^[a-z0-9][a-z0-9-]{0,38}$/;
const REPO = /^[a-z0-9._-]{1,100}$/;
const KNOWN = new Set(['title', 'body', 'state', 'assignees']);

export async function startIssueServer(key: string, breakage?: IssueBreakage): Promise<StyleServer> {
  const repos = new Map<string, { next: number; issues: Map<number, Row>; gone: Set<number> }>();
  const problem = (b: unknown): string | undefined => {
    if (b === null || typeof b !== 'object' || Array.isArray(b)) return 'body must be an object';
    const row = b as Row;
    if (typeof row.title !== 'string' || row.title.length < 1 || [...row.title].length > 256) return 'title is required';
    if (row.body !== undefined && (typeof row.body !== 'string' || [...row.body].length > 65536)) return 'body is text';
    if (row.state !== undefined && row.state !== 'open' && row.state !== 'closed') return 'state is open or closed';
    const a = row.assignees;
    if (a !== undefined && (!Array.isArray(a) || a.length > 10 || a.some((l) => typeof l !== 'string' || !OWNER.test(l))))
      return 'assignees are logins';
    return undefined;
  };
  const input = (b: Row): Row =>
    Object.fromEntries(
      Object.entries(b).filter(([k]) => KNOWN.has(k) && (k !== 'assignees' || breakage !== 'assignees-dropped')),
    );
  return listen('/api/v2', async (req, res, path, query, text) => {
    const send = (status: number, body?: unknown) => json(res, status, body, 'application/json; charset=utf-8');
    const fail = (status: number, message: string) => send(status, { message, code: status });
    if (req.headers.authorization !== `Bearer ${key}`) {
      res.setHeader('www-authenticate', 'Bearer realm="issues"');
      return fail(401, 'Bad credentials');
    }
    const m = /^\/repos\/([^/]+)\/([^/]+)\/issues(?:\/([^/]+))?\/?$/.exec(path);
    if (!m) return fail(404, 'Not Found');
    const [owner, repo] = [decodeURIComponent(m[1] as string), decodeURIComponent(m[2] as string)];
    if (!OWNER.test(owner) || !REPO.test(repo)) return fail(404, 'Not Found');
    const at = `${owner}/${repo}`;
    const held = repos.get(at) ?? { next: 1, issues: new Map<number, Row>(), gone: new Set<number>() };
    repos.set(at, held);
    const body = (): Row | undefined => {
      if (!(req.headers['content-type'] ?? '').toLowerCase().startsWith('application/json')) {
        fail(415, 'Unsupported Media Type');
        return undefined;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        fail(400, 'Problems parsing JSON');
        return undefined;
      }
      const wrong = problem(parsed);
      if (wrong) fail(422, wrong);
      return wrong ? undefined : (parsed as Row);
    };
    if (m[3] === undefined) {
      if (req.method === 'GET' || req.method === 'HEAD') {
        const perPage = query.get('per_page') ?? '20';
        const state = query.get('state');
        const cursor = query.get('cursor');
        if (!/^\d+$/.test(perPage) || Number(perPage) < 1 || Number(perPage) > 50) return fail(422, 'per_page is 1 to 50');
        if (state !== null && state !== 'open' && state !== 'closed') return fail(422, 'state is open or closed');
        const after = cursor === null ? 0 : Number(Buffer.from(cursor, 'base64url').toString());
        if (!Number.isInteger(after) || after < 0) return fail(422, 'cursor is not one this server gave');
        const all = [...held.issues.values()].filter((i) => state === null || i.state === state);
        const from = all.filter((i) => (i.number as number) > after);
        const page = from.slice(0, Number(perPage));
        const last = page.at(-1);
        const next = from.length > page.length && last ? Buffer.from(String(last.number)).toString('base64url') : null;
        return send(200, { items: page, total: all.length, next });
      }
      if (req.method === 'POST') {
        const b = body();
        if (!b) return;
        const issue = { number: held.next++, ...input(b), created_at: new Date().toISOString() };
        held.issues.set(issue.number, issue);
        return send(201, issue);
      }
      res.setHeader('allow', 'GET, HEAD, POST');
      return fail(405, 'Method Not Allowed');
    }
    const number = /^[1-9]\d{0,9}$/.test(m[3]) ? Number(m[3]) : Number.NaN;
    if (Number.isNaN(number) || number > 2147483647) return fail(404, 'Not Found');
    const issue = held.gone.has(number) ? undefined : held.issues.get(number);
    if (req.method === 'GET' || req.method === 'HEAD') return issue ? send(200, issue) : fail(404, 'Not Found');
    if (req.method === 'PUT') {
      if (!issue) return fail(404, 'Not Found');
      const b = body();
      if (!b) return;
      if (breakage !== 'put-ignored') held.issues.set(number, { number, ...input(b), created_at: issue.created_at });
      return send(204);
    }
    if (req.method === 'DELETE') {
      if (!issue) return fail(404, 'Not Found');
      if (breakage === 'delete-keeps-listed') held.gone.add(number);
      else held.issues.delete(number);
      return send(200, issue);
    }
    res.setHeader('allow', 'GET, HEAD, PUT, DELETE');
    return fail(405, 'Method Not Allowed');
  });
}
