import { brotliDecompress, gunzip, inflate, inflateRaw, type ZlibOptions } from 'node:zlib';

export type DecodedBody = Buffer | { readonly kind: 'too-large' | 'undecodable'; readonly problem: string };

type Decoder = (bytes: Buffer, options: ZlibOptions) => Promise<Buffer>;

const promised =
  (decode: (bytes: Buffer, options: ZlibOptions, done: (error: Error | null, out: Buffer) => void) => void): Decoder =>
  (bytes, options) =>
    new Promise((resolve, reject) => decode(bytes, options, (error, out) => (error ? reject(error) : resolve(out))));

// RFC 9110 §8.4.1: the codings a client is expected to know. `deflate` is the zlib format (RFC 1950), but
// servers have long sent raw deflate (RFC 1951) under that name, as browsers accept.
const DECODERS: Readonly<Record<string, Decoder>> = {
  gzip: promised(gunzip),
  'x-gzip': promised(gunzip),
  // A zlib stream that grows past the cap is too large whichever format it is: only other errors mean raw deflate.
  deflate: (bytes, options) =>
    promised(inflate)(bytes, options).catch((error: { code?: string }) =>
      error.code === 'ERR_BUFFER_TOO_LARGE' ? Promise.reject(error) : promised(inflateRaw)(bytes, options),
    ),
  br: promised(brotliDecompress),
  identity: async (bytes) => bytes,
};

/**
 * Undoes the Content-Encoding codings, last applied first (RFC 9110 §8.4). A coding the runner does not know
 * (zstd, say) or a body that does not decode is a problem to report, not a crash; the decoded size is capped
 * like the raw one, so a small compressed body cannot grow into gigabytes.
 */
export async function decodeContent(
  bytes: Buffer,
  contentEncoding: string | string[] | undefined,
  maxBytes: number,
): Promise<DecodedBody> {
  const codings = [contentEncoding ?? []]
    .flat()
    .flatMap((value) => value.split(','))
    .map((coding) => coding.trim().toLowerCase())
    .filter(Boolean)
    .reverse();
  // An empty body (a HEAD answer, a 204) is not encoded, whatever Content-Encoding says.
  if (bytes.length === 0) return bytes;
  let body = bytes;
  for (const coding of codings) {
    const decoder = DECODERS[coding];
    if (!decoder) {
      return {
        kind: 'undecodable',
        problem: `the body has Content-Encoding ${coding}, which the runner cannot decode (it decodes gzip, deflate and br)`,
      };
    }
    try {
      body = await decoder(body, { maxOutputLength: maxBytes });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
        return { kind: 'too-large', problem: `decoded, the body is more than --max-response-bytes (${maxBytes} bytes)` };
      }
      return {
        kind: 'undecodable',
        problem: `the body does not decode as Content-Encoding ${coding}: ${(error as Error).message}`,
      };
    }
  }
  return body;
}
