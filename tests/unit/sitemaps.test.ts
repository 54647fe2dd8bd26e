/** Sitemap index and children within the protocol's limits (src/domain/sitemap.ts). */
import { describe, expect, it } from 'vitest';
import { SITEMAP_MAX_URLS, sitemapIndexXml, sitemapSet, sitemapXml } from '../../src/domain/sitemap.ts';

const urls = (n: number) => Array.from({ length: n }, (_, i) => ({ loc: `https://x.test/p${i}`, lastmod: 1_700_000_000 + i }));
const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
const child = (name: string) => `https://x.test/${name}`;

describe('sitemapSet', () => {
  it('keeps exactly the limit in one child and starts a second one past it', () => {
    expect(sitemapSet(urls(5), child, { maxUrls: 5 }).children.size).toBe(1);
    const set = sitemapSet(urls(6), child, { maxUrls: 5 });
    expect([...set.children.keys()]).toEqual(['sitemap-1.xml', 'sitemap-2.xml']);
    expect(locs(set.children.get('sitemap-2.xml')!)).toEqual(['https://x.test/p5']);
    expect(locs(set.index)).toEqual(['https://x.test/sitemap-1.xml', 'https://x.test/sitemap-2.xml']);
    expect(set.index).toContain('<sitemapindex');
  });

  it('uses the protocol limit of 50,000 URLs by default', () => {
    expect(SITEMAP_MAX_URLS).toBe(50_000);
    const set = sitemapSet(urls(50_001), child);
    expect(set.children.size).toBe(2);
    expect(locs(set.children.get('sitemap-1.xml')!)).toHaveLength(50_000);
  });

  it('splits by size too, each child within the byte limit', () => {
    const one = Buffer.byteLength(sitemapXml([urls(1)[0]!]));
    const set = sitemapSet(urls(10), child, { maxBytes: one + 60 });
    for (const xml of set.children.values()) expect(Buffer.byteLength(xml)).toBeLessThanOrEqual(one + 60);
    expect([...set.children.values()].flatMap(locs)).toHaveLength(10);
  });

  it('gives each child the latest lastmod of its URLs, in W3C form', () => {
    const set = sitemapSet(urls(3), child);
    expect(set.index).toContain(`<lastmod>${new Date((1_700_000_002) * 1000).toISOString().replace('.000', '')}</lastmod>`);
    expect(set.children.get('sitemap-1.xml')).toContain('<lastmod>2023-11-14T22:13:20Z</lastmod>');
  });

  it('an empty catalogue still has an index with one (empty) child', () => {
    const set = sitemapSet([], child);
    expect(set.children.size).toBe(1);
    expect(sitemapIndexXml([])).toContain('<sitemapindex');
  });
});
