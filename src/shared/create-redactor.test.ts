import { describe, expect, it } from 'vitest';
import { parseJson } from '../contract/lossless-json.js';
import { createRedactor, LOWERS_TO_ASCII, minimumRun } from './create-redactor.js';

const KEY = 'pk/live_9fQ2xZ7rT4mW8bN1';
const redact = createRedactor(KEY);
const b64 = (text: string) => Buffer.from(text).toString('base64');
const unicodeEscaped = [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

describe('createRedactor', () => {
  it('redacts the key as sent, as escaped in a JSON string, and as percent-encoded in a URL', () => {
    const key = 'k"ey\\12/34 é';
    const echoed = `${JSON.stringify({ got: key })} /v1/pets?key=${encodeURIComponent(key)} raw ${key}`;
    expect(createRedactor(key)(echoed)).toBe('{"got":"***"} /v1/pets?key=*** raw ***');
  });

  it.each([
    ['PHP json_encode escapes', `{"echo":"${KEY.replace('/', '\\/')}"}`],
    ['\\uXXXX escapes', `{"echo":"${unicodeEscaped}"}`],
    ['percent-encoding in upper case', `?k=${encodeURIComponent(KEY)}`],
    ['percent-encoding in lower case', `?k=${encodeURIComponent(KEY).toLowerCase()}`],
    ['every character percent-encoded', `?k=${[...KEY].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')}`],
    ['base64 of the key', `token ${b64(KEY)}`],
    ['base64url of the key', `token ${b64(KEY).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`],
    ['base64 of Bearer <key>', `was ${b64(`Bearer ${KEY}`)}`],
    ['base64 of user:<key> (Basic)', `Basic ${b64(`user:${KEY}`)}`],
    ['base64 inside a JSON string', `{"a":"${b64(`Bearer ${KEY}`)}"}`],
    ['the key minus its last character', `got ${KEY.slice(0, -1)}`],
    ['the key plus a suffix', `got ${KEY}x`],
    [
      'the key in swapped case',
      `got ${[...KEY].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('')}`,
    ],
    ['Basic <key>', `got Basic ${KEY}`],
    ['Token <key>', `got Token ${KEY}`],
    ['Bearer <key> junk', `got Bearer ${KEY} junk`],
    ['the second half of the key', `got ${KEY.slice(KEY.length - minimumRun(KEY))}`],
    ['base64 after a prefix of the base64url alphabet', `{"t":"sk-${b64(KEY)}","u":"x_${b64(KEY)}"}`],
    ['base64 after prefixes of every length', `a${b64(KEY)} ab${b64(KEY)} abc${b64(KEY)} abcd${b64(KEY)}`],
    ['\\uXXXX escapes outside any JSON string (a header value)', `x-echo: ${unicodeEscaped}`],
    ['\\xHH escapes', `echo ${[...KEY].map((c) => `\\x${c.charCodeAt(0).toString(16)}`).join('')}`],
    ['the key percent-encoded twice', `?next=${encodeURIComponent(encodeURIComponent(KEY))}`],
    ['every character percent-encoded twice', `?k=${[...KEY].map((c) => `%25${c.charCodeAt(0).toString(16)}`).join('')}`],
    ['base64 of its base64', `token ${b64(b64(KEY))}`],
    [
      'hex of the key, also after an odd prefix',
      `hex ${Buffer.from(KEY).toString('hex')} and x${Buffer.from(KEY).toString('hex')}`,
    ],
  ])('redacts the key in %s', (_, echoed) => {
    const out = redact(echoed);
    expect(out).toContain('***');
    expect(out.toLowerCase()).not.toContain(KEY.slice(0, 8).toLowerCase());
    expect(out.toLowerCase()).not.toContain(KEY.slice(-8).toLowerCase());
    expect(out).not.toContain(b64(KEY).slice(0, 12));
  });

  it('redacts a key that holds %, = and / whole, not only the part a decoding sees', () => {
    const key = 'k3y+/With=Sp3cial%chars';
    const redactSpecial = createRedactor(key);
    expect(redactSpecial(`{"message":"${key}"}`)).toBe('{"message":"***"}');
    expect(redactSpecial(`x-echo: ${key}`)).toBe('x-echo: ***');
    expect(redactSpecial(`?k=${encodeURIComponent(key)}`)).toBe('?k=***');
  });

  it('keeps a redacted JSON body valid JSON, and leaves the rest of it as it was', () => {
    const body = `{"id":9007199254740993,"msg":"key ${KEY.replace('/', '\\/')} refused","path":"a\\/b"}`;
    const out = redact(body);
    expect(parseJson(out)).toEqual({ id: 9007199254740993n, msg: 'key *** refused', path: 'a/b' });
    expect(out).toContain('"path":"a\\/b"');
  });

  it('leaves ordinary text alone: shorter runs of the key, words, base64 of other things', () => {
    const text = `{"name":"pk/live","note":"${b64('hello world, nothing here')}","url":"/v1/pets?limit=10%20"}`;
    expect(redact(text)).toBe(text);
  });

  it('keeps words that share fewer characters with the key than a run: $PETSTORE_API_KEY under petstore-dev-key', () => {
    const line = `curl -H "Authorization: Bearer $PETSTORE_API_KEY" # petstore-dev-ke`;
    expect(createRedactor('petstore-dev-key')(line)).toBe('curl -H "Authorization: Bearer $PETSTORE_API_KEY" # ***');
  });

  it('counts the key minus one character as the key, however long the key', () => {
    for (const key of ['abcdefghi', 'abcdefghijklm', KEY, KEY.repeat(3)]) {
      expect(createRedactor(key)(`x ${key.slice(1)} y`), key).toBe('x *** y');
    }
  });

  it('reads a long body without delimiters once, not once per position (no backtracking pattern)', () => {
    const body = `${'A'.repeat(4_000_000)}%41${'a'.repeat(4_000_000)}"${'\\'.repeat(1000)}`;
    expect(redact(body)).toBe(body);
  });

  it('reads a 10 MiB JSON string, plain or escaped, without overflowing the stack', () => {
    const plain = `[{"name":"${'a'.repeat(10 * 1024 * 1024)}"}]`;
    expect(redact(plain)).toBe(plain);
    const escaped = `[{"name":"${'\\u0041'.repeat(1024 * 1024)} ${KEY}"}]`;
    expect(redact(escaped)).toBe('[{"name":"***"}]'.replace('***', `${'A'.repeat(1024 * 1024)} ***`));
  });

  it('finds the key where characters before it change length when lower-cased (İ is two characters in lower case)', () => {
    const body = JSON.stringify({ turkish: `${'İ'.repeat(40)} ${KEY}`, after: 'kept' });
    const out = redact(body);
    expect(out).not.toContain(KEY);
    expect(parseJson(out)).toEqual({ turkish: `${'İ'.repeat(40)} ***`, after: 'kept' });
  });

  it('finds the key spelled with characters outside ASCII that lower-case to its letters (the Kelvin sign, İ)', () => {
    const key = 'kilo-secret-key-1234';
    const spelled = key.replaceAll('k', '\u212a').replaceAll('i', '\u0130');
    const out = createRedactor(key)(JSON.stringify({ echoed: spelled, after: 'kept' }));
    expect(out).toBe('{"echoed":"***","after":"kept"}');
  });

  it('knows every character outside ASCII that lower-cases to an ASCII one, as this Node.js lower-cases', () => {
    const found: Record<string, string> = {};
    for (let code = 0x80; code <= 0x10ffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const char = String.fromCodePoint(code);
      const lower = char.toLowerCase();
      // As lowerInPlace reads it: the first character of a lower case that is longer than the character.
      const inPlace = lower.length === char.length ? lower : (lower[0] as string);
      if (inPlace.length === 1 && inPlace.charCodeAt(0) < 0x80) found[inPlace] = (found[inPlace] ?? '') + char;
    }
    expect(found).toEqual(LOWERS_TO_ASCII);
  });

  it('redacts an encoded key every time it comes back, beside tokens seen before that reveal nothing', () => {
    const encoded = b64(`Bearer ${KEY}`);
    for (let i = 0; i < 3; i++) {
      expect(redact(`application/json ${encoded} application/json`)).toBe('application/json *** application/json');
    }
    // Its own padding goes with it; what follows starts a token of its own.
    expect(encoded.endsWith('==')).toBe(true);
    expect(redact(`${encoded}==${encoded}`)).toBe('***==***');
  });

  it('finds an encoded key inside a decoding that is mostly bytes no encoding uses (base64 of binary around it)', () => {
    const binary = Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 37 + 128) % 256));
    const wrapped = Buffer.concat([binary, Buffer.from(` ${b64(KEY)}%`), binary]).toString('base64');
    expect(redact(`blob ${wrapped} end`)).toBe('blob *** end');
    const hex = Buffer.concat([binary, Buffer.from(Buffer.from(KEY).toString('hex')), binary]).toString('base64');
    expect(redact(`blob ${hex} end`)).toBe('blob *** end');
  });

  it('redacts a long token holding the key every time it comes back, and long tokens past the remembered budget', () => {
    const filler = (seed: number) => Array.from({ length: 10_000 }, (_, i) => 'abcdefghkmnpqrstuvwxyz'[(i * seed) % 22]).join('');
    const revealing = `${filler(7)}${b64(KEY)}`;
    for (let i = 0; i < 3; i++) expect(redact(`[${revealing}]`)).toBe('[***]');
    // Enough other long tokens to go past what is remembered: the verdicts are dropped, never wrong.
    for (let seed = 1; seed < 200; seed++) expect(redact(`[${filler(seed)}]`)).toBe(`[${filler(seed)}]`);
    expect(redact(`[${revealing}]`)).toBe('[***]');
  });

  it('redacts the base64 and hex of a short key, and of the key minus a character (past 8 characters), whatever its length', () => {
    for (const key of ['abc12345', 'Kq7Zp2Xw9Lm', 'SECRETKEY', 'abcdefghijklmnopq', KEY]) {
      const redact = createRedactor(key);
      for (const sent of key.length > 8 ? [key, key.slice(0, -1)] : [key]) {
        for (const encoded of [
          Buffer.from(sent).toString('base64'),
          Buffer.from(sent).toString('hex'),
          Buffer.from(sent).toString('base64url'),
        ]) {
          expect(redact(`{"echo":"${encoded}"}`), `${key}: ${encoded}`).toBe('{"echo":"***"}');
        }
      }
    }
  });

  it('looks for no secret under 8 characters by value: it cannot be told from a word, an id or markup', () => {
    for (const key of ['test', 'k', 'failure', 'pet', 'id', 'abc1234']) {
      const text = `<testsuites tests="2"><testcase name="listPets id"/></testsuites> {"elapsedMs":2.5,"message":"unknown key ${key}"}`;
      expect(createRedactor(key)(text), key).toBe(text);
    }
    expect(createRedactor('testcase')('{"message":"unknown key testcase"}')).toBe('{"message":"unknown key ***"}');
  });

  it('leaves a key made of digits alone inside a longer number, and redacts it standing alone', () => {
    const redactDigits = createRedactor('20261125');
    expect(redactDigits('{"id":202611250001,"at":"x20261125y","key":"20261125"}')).toBe(
      '{"id":202611250001,"at":"x***y","key":"***"}',
    );
  });

  it('leaves text alone when there is no key', () => {
    expect(createRedactor(undefined)('Bearer abc')).toBe('Bearer abc');
  });
});
