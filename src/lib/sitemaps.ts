/**
 * The sitemaps' files, for the full build's endpoints (src/pages/sitemap*.xml.ts) and the publisher alike, from
 * what db/queries/sitemaps.ts reads (slugs and dates, never the page models), so both produce the same bytes at any
 * catalogue size.
 *
 * The marketplace's children are laid out so that a change to one educator rewrites one small child and the
 * index, whatever the catalogue's size: `sitemap-1.xml` lists home and the categories; each educator's URLs are
 * in the child of its bucket (`sitemap-{bucket + 2}.xml`, a stable hash of its id, so a new slug stays put),
 * and the number of buckets is the power of two that keeps them near MARKETPLACE_URLS_PER_CHILD URLs each.
 * A bucket too large for one file (an educator with tens of thousands of courses) is split into
 * `sitemap-{n}-1.xml`, `sitemap-{n}-2.xml`….
 */
import type { Db } from '../../db/client.ts';
import {
  allEducatorIds, listedCategorySlugs, marketplaceUrlCount, sitemapEducatorEntries, type SitemapEducatorEntry,
} from '../../db/queries/sitemaps.ts';
import { marketplaceEducatorSitemapPaths, minisiteSitemapPaths } from '../domain/crawl.ts';
import { sitemapIndexXml, sitemapSet, type SitemapSet, type SitemapUrl } from '../domain/sitemap.ts';
import { marketplaceUrl, minisiteUrl } from './config.ts';

/** Marketplace URLs per child sitemap, on average: few enough that rewriting one is cheap, far below the protocol's 50,000. */
export const MARKETPLACE_URLS_PER_CHILD = 5_000;

/** Which bucket (child sitemap) an educator's URLs are in: FNV-1a of its id, a spread that never changes for it. */
export function sitemapBucket(educatorId: string, buckets: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < educatorId.length; i++) {
    hash ^= educatorId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % buckets;
}

/** Buckets for a catalogue of about `urls` educator URLs: a power of two, so it changes only when the catalogue doubles or halves. */
export function sitemapBuckets(urls: number, urlsPerChild = MARKETPLACE_URLS_PER_CHILD): number {
  let buckets = 1;
  while (buckets * urlsPerChild < urls) buckets *= 2;
  return buckets;
}

/** Limits of the marketplace's children; tests lower them to see a small catalogue in several children. */
export interface MarketplaceSitemapLimits {
  /** URLs in one file at most (the protocol's 50,000). */
  maxUrls?: number;
  /** URLs per educators' child on average (MARKETPLACE_URLS_PER_CHILD). */
  urlsPerChild?: number;
}

/** How many buckets the catalogue's educators are spread over. */
async function bucketCount(db: Db, urlsPerChild?: number): Promise<number> {
  return sitemapBuckets(await marketplaceUrlCount(db), urlsPerChild);
}

/** The entries of a sitemap index as written by src/domain/sitemap.ts (lastmod in epoch seconds). */
export function parseSitemapIndex(xml: string): SitemapUrl[] {
  const unescape = (v: string) => v.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
  return [...xml.matchAll(/<sitemap><loc>([^<]*)<\/loc>(?:<lastmod>([^<]*)<\/lastmod>)?<\/sitemap>/g)].map((m) => ({
    loc: unescape(m[1]!),
    lastmod: m[2] ? Date.parse(m[2]) / 1000 : null,
  }));
}

/** One child's number in the layout (`sitemap-{n}.xml` or `sitemap-{n}-{part}.xml`); null for any other name. */
function childNumber(name: string): number | null {
  const m = /^sitemap-(\d+)(?:-\d+)?\.xml$/.exec(name);
  return m ? Number(m[1]) : null;
}

/** The file(s) of child n: one file, or parts when its URLs pass a sitemap's limits. */
function childFiles(n: number, urls: SitemapUrl[], limits?: MarketplaceSitemapLimits): { files: Map<string, string>; entries: SitemapUrl[] } {
  const set = sitemapSet(urls, (name) => name, { maxUrls: limits?.maxUrls });
  const parts = parseSitemapIndex(set.index);
  const names = [...set.children.keys()];
  const rename = (i: number) => (names.length === 1 ? `sitemap-${n}.xml` : `sitemap-${n}-${i + 1}.xml`);
  const files = new Map(names.map((name, i) => [rename(i), set.children.get(name)!]));
  const entries = parts.map((part, i) => ({ loc: marketplaceUrl(`/${rename(i)}`), lastmod: part.lastmod }));
  return { files, entries };
}

function educatorUrls(entries: ReadonlyArray<SitemapEducatorEntry>): SitemapUrl[] {
  const urls: SitemapUrl[] = [];
  for (const e of entries) {
    for (const path of marketplaceEducatorSitemapPaths(e)) urls.push({ loc: marketplaceUrl(path), lastmod: e.lastmod });
  }
  return urls;
}

async function firstChild(db: Db): Promise<SitemapUrl[]> {
  return [{ loc: marketplaceUrl('/') }, ...(await listedCategorySlugs(db)).map((slug) => ({ loc: marketplaceUrl(`/courses/${slug}`) }))];
}

/** The marketplace's sitemap index (/sitemap.xml) and all its children. */
export async function marketplaceSitemaps(db: Db, limits?: MarketplaceSitemapLimits): Promise<SitemapSet> {
  const [first, educators, buckets] = await Promise.all([firstChild(db), sitemapEducatorEntries(db), bucketCount(db, limits?.urlsPerChild)]);
  const byBucket = Array.from({ length: buckets }, () => [] as SitemapEducatorEntry[]);
  for (const e of educators) byBucket[sitemapBucket(e.id, buckets)]!.push(e);
  const children = new Map<string, string>();
  const entries: SitemapUrl[] = [];
  [first, ...byBucket.map(educatorUrls)].forEach((urls, i) => {
    const child = childFiles(i + 1, urls, limits);
    for (const [name, xml] of child.files) children.set(name, xml);
    entries.push(...child.entries);
  });
  return { index: sitemapIndexXml(entries), children };
}

export interface MarketplaceSitemapUpdate {
  index: string;
  /** The children to write: the first one and those of the changed educators' buckets (all of them when `full`). */
  children: Map<string, string>;
  /** Every child the new index names: any other sitemap-*.xml file is to be removed. */
  named: Set<string>;
  /** Whether the layout had changed (or the current index could not be read) and every child was written. */
  full: boolean;
}

/**
 * What a change to some educators (present or removed) does to the marketplace sitemaps, reading only those
 * educators' buckets: the first child, their children and the index. `currentIndex` is the index as served; the
 * children it names that are not rewritten keep their lastmod. When the layout changed (the catalogue doubled or
 * halved, or the host changed) or there is no index, every child is rewritten, as a full build writes them.
 */
export async function marketplaceSitemapUpdate(
  db: Db, educatorIds: Iterable<string>, currentIndex: string | null, limits?: MarketplaceSitemapLimits,
): Promise<MarketplaceSitemapUpdate> {
  const buckets = await bucketCount(db, limits?.urlsPerChild);
  const current = currentIndex ? parseSitemapIndex(currentIndex) : [];
  const prefix = marketplaceUrl('/');
  const currentNumbers = new Set(current.map((c) => (c.loc.startsWith(prefix) ? childNumber(c.loc.slice(prefix.length)) : null)));
  const sameLayout = current.length > 0 && currentNumbers.size === buckets + 1 && !currentNumbers.has(null)
    && Array.from({ length: buckets + 1 }, (_, i) => i + 1).every((n) => currentNumbers.has(n));
  if (!sameLayout) {
    const all = await marketplaceSitemaps(db, limits);
    return { index: all.index, children: all.children, named: new Set(all.children.keys()), full: true };
  }
  const touched = new Set([...educatorIds].map((id) => sitemapBucket(id, buckets) + 2));
  const ids = touched.size === 0 ? [] : (await allEducatorIds(db)).filter((id) => touched.has(sitemapBucket(id, buckets) + 2));
  const entries = await sitemapEducatorEntries(db, ids);
  const rewritten = new Map<number, ReturnType<typeof childFiles>>();
  rewritten.set(1, childFiles(1, await firstChild(db), limits));
  for (const n of touched) rewritten.set(n, childFiles(n, educatorUrls(entries.filter((e) => sitemapBucket(e.id, buckets) + 2 === n)), limits));
  const children = new Map<string, string>();
  const index: SitemapUrl[] = [];
  for (let n = 1; n <= buckets + 1; n++) {
    const child = rewritten.get(n);
    if (child) {
      for (const [name, xml] of child.files) children.set(name, xml);
      index.push(...child.entries);
    } else {
      index.push(...current.filter((c) => childNumber(c.loc.slice(prefix.length)) === n));
    }
  }
  return { index: sitemapIndexXml(index), children, named: new Set(index.map((c) => c.loc.slice(prefix.length))), full: false };
}

/** One minisite's sitemap index ({slug}.{host}/sitemap.xml) and children; null when the educator is gone. */
export async function minisiteSitemaps(db: Db, educatorId: string): Promise<{ slug: string; set: SitemapSet } | null> {
  const [e] = await sitemapEducatorEntries(db, [educatorId]);
  if (!e) return null;
  const urls = minisiteSitemapPaths(e).map((path) => ({ loc: minisiteUrl(e.slug, path), lastmod: e.lastmod }));
  return { slug: e.slug, set: sitemapSet(urls, (name) => minisiteUrl(e.slug, `/${name}`)) };
}
