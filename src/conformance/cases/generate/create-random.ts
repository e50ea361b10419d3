/** A seeded generator (mulberry32): the same seed gives the same values, so a run can be repeated exactly. */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  below(n: number): number;
  /** `length` characters drawn from `alphabet`. */
  text(length: number, alphabet?: string): string;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const below = (n: number) => Math.floor(next() * n);
  return {
    next,
    below,
    text: (length, alphabet = LETTERS) => {
      let out = '';
      for (let i = 0; i < length; i++) out += alphabet[below(alphabet.length)];
      return out;
    },
  };
}
