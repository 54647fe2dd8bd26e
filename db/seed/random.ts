/**
 * A small seeded pseudo-random generator for the demo catalogue: same seed, same data.
 *
 * mulberry32 (32-bit state, good enough spread for demo content, tiny and fast). Each educator
 * gets its own stream derived from (seed, educator number), so educator 7 is the same whether
 * 30 or 10,000 educators are generated.
 */

/** Mixes any number of integers/strings into one 32-bit seed (FNV-1a over the parts, then a finaliser). */
export function hashSeed(...parts: (number | string)[]): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    const text = String(part);
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    h ^= 0x2f; // part separator, so ('1','23') differs from ('12','3')
    h = Math.imul(h, 0x01000193);
  }
  // murmur3 finaliser for avalanche
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    if (max < min) throw new Error(`int(${min}, ${max}): empty range`);
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick() from an empty array');
    return items[Math.floor(this.next() * items.length)];
  }

  /** One element, chosen with the given relative weights. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    const total = entries.reduce((sum, [, w]) => sum + w, 0);
    let r = this.next() * total;
    for (const [value, w] of entries) {
      r -= w;
      if (r < 0) return value;
    }
    return entries[entries.length - 1][0];
  }

  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }

  /** `count` distinct elements (or all of them when there are fewer), in random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    return this.shuffle(items).slice(0, Math.max(0, count));
  }

  /** A child generator with its own stream, derived from this one and a label. */
  fork(label: string | number): Random {
    return new Random(hashSeed(this.int(0, 0xffffffff), label));
  }
}

/** The generator for one named stream of one seed, e.g. rngFor(1, 'educator', 42). */
export function rngFor(seed: number, ...parts: (number | string)[]): Random {
  return new Random(hashSeed(seed, ...parts));
}
