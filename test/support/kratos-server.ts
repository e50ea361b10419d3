import { json, listen, type Row, type StyleServer } from './generated-style-servers.js';

/**
 * A correct server of test/contracts/kratos-articles, written by hand apart from the mock as a Go (kratos) service
 * behaves: each write reads its record from the body's `article` member and ignores any other member (the PUT's
 * `slug` repeats the path); a PUT replaces the record: a field it leaves out is gone, and so is one it does not name (tagList, which
 * only the create takes: the contract leaves that open);
 * errors are a google.rpc Status. 'reads-top-level' reads the record from the body's top instead, so a PUT of
 * `{"article": {...}}` changes nothing. `puts` holds the bodies of the PUTs it took.
 */
export type KratosBreakage = 'reads-top-level';

export async function startKratosServer(breakage?: KratosBreakage): Promise<StyleServer & { readonly puts: readonly unknown[] }> {
  const articles = new Map<string, Row>();
  const puts: unknown[] = [];
  let next = 1;
  const fail = (res: Parameters<typeof json>[0], status: number, code: number, message: string) =>
    json(res, status, { code, message, details: [] });
  const recordOf = (text: string): Row | undefined => {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return undefined;
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
    const inner = breakage === 'reads-top-level' ? body : ((body as Row).article ?? {});
    return inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? (inner as Row) : undefined;
  };
  const fields = (record: Row, names: readonly string[]): Row | undefined => {
    const out: Row = {};
    for (const name of names) {
      const value = record[name];
      if (value === undefined) continue;
      const ok =
        name === 'tagList' ? Array.isArray(value) && value.every((t) => typeof t === 'string') : typeof value === 'string';
      if (!ok) return undefined;
      out[name] = value;
    }
    return out;
  };
  const whole = (limitText: string | null): number | undefined => {
    if (limitText === null) return undefined;
    return /^-?\d+$/.test(limitText) ? Math.max(0, Number(limitText)) : Number.NaN;
  };
  const server = await listen('', async (req, res, path, query, text) => {
    const now = new Date().toISOString();
    if (path === '/api/articles' && req.method === 'GET') {
      const limit = whole(query.get('limit'));
      const offset = whole(query.get('offset'));
      if (Number.isNaN(limit) || Number.isNaN(offset)) return fail(res, 400, 3, 'limit and offset are whole numbers');
      const all = [...articles.values()];
      const from = offset ?? 0;
      return json(res, 200, { articles: all.slice(from, from + (limit || 20)), articlesCount: all.length });
    }
    if (path === '/api/articles' && req.method === 'POST') {
      const sent = recordOf(text);
      const written = sent && fields(sent, ['title', 'description', 'body', 'tagList']);
      if (!written) return fail(res, 400, 3, 'the body is an object with an article');
      const slug = `a${next++}`;
      const article = { slug, ...written, createdAt: now, updatedAt: now, favorited: false, favoritesCount: 0 };
      articles.set(slug, article);
      return json(res, 200, { article });
    }
    const slug = /^\/api\/articles\/([^/]+)$/.exec(path)?.[1];
    const article = slug === undefined ? undefined : articles.get(decodeURIComponent(slug));
    if (slug === undefined) return fail(res, 404, 5, 'no such path');
    if (!['GET', 'PUT', 'DELETE'].includes(req.method ?? '')) return fail(res, 405, 12, 'method not allowed');
    if (!article) return fail(res, 404, 5, 'article not found');
    if (req.method === 'GET') return json(res, 200, { article });
    if (req.method === 'DELETE') {
      articles.delete(article.slug as string);
      return json(res, 200, {});
    }
    const sent = recordOf(text);
    const written = sent && fields(sent, ['title', 'description', 'body']);
    if (!written) return fail(res, 400, 3, 'the body is an object with an article');
    const { title, description, body, tagList, ...kept } = article;
    const updated = { ...kept, ...written, updatedAt: now };
    puts.push(JSON.parse(text));
    articles.set(article.slug as string, updated);
    return json(res, 200, { article: updated });
  });
  return { ...server, puts };
}
