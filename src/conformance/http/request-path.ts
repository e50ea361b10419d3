/**
 * The path a request the run sent went to, without its trailing slashes (`http://h/v1/pets/?a=1` → `/v1/pets`).
 * Every create of a run is sent to one of a few URLs: each is parsed once, not on every answer that reads it.
 * Throws on text that is no URL, as `new URL` does.
 */
export function requestPath(url: string): string {
  let path = paths.get(url);
  if (path === undefined) {
    path = new URL(url).pathname.replace(TRAILING_SLASHES, '');
    if (paths.size >= REMEMBERED_URLS) paths.clear();
    paths.set(url, path);
  }
  return path;
}

const paths = new Map<string, string>();
const REMEMBERED_URLS = 256;
const TRAILING_SLASHES = /\/+$/;
