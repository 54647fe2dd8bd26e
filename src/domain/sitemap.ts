/**
 * sitemaps.org XML: URL sets, and sitemap indexes over child sitemaps of at most 50,000 URLs and 50 MB each
 * (the protocol's limits), so a catalogue of any size is listed. Pure: the full build's endpoints and the
 * publisher both call these with the same rows and get the same bytes.
 */
function escapeXml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

export interface SitemapUrl {
  loc: string;
  /** Epoch seconds. */
  lastmod?: number | null;
}

/** The protocol's limits for one sitemap file. */
export const SITEMAP_MAX_URLS = 50_000;
export const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;

const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';
const TAIL = '\n</urlset>\n';

function w3cDate(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function urlLine(url: SitemapUrl | string): string {
  if (typeof url === 'string') return `  <url><loc>${escapeXml(url)}</loc></url>`;
  const lastmod = url.lastmod ? `<lastmod>${w3cDate(url.lastmod)}</lastmod>` : '';
  return `  <url><loc>${escapeXml(url.loc)}</loc>${lastmod}</url>`;
}

export function sitemapXml(urls: ReadonlyArray<SitemapUrl | string>): string {
  return `${HEAD}${urls.map(urlLine).join('\n')}${TAIL}`;
}

export function sitemapIndexXml(children: ReadonlyArray<SitemapUrl>): string {
  const body = children.map((c) => `  <sitemap><loc>${escapeXml(c.loc)}</loc>${c.lastmod ? `<lastmod>${w3cDate(c.lastmod)}</lastmod>` : ''}</sitemap>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</sitemapindex>\n`;
}

export interface SitemapSet {
  /** The index (served as /sitemap.xml). */
  index: string;
  /** Child sitemaps by file name (sitemap-1.xml, sitemap-2.xml, …), in order. */
  children: Map<string, string>;
}

/**
 * Splits URLs, in order, into children within both limits and writes the index naming them.
 * `childUrl(name)` is the absolute URL of a child file on the same host.
 */
export function sitemapSet(
  urls: ReadonlyArray<SitemapUrl>,
  childUrl: (name: string) => string,
  limits: { maxUrls?: number; maxBytes?: number } = {},
): SitemapSet {
  const maxUrls = limits.maxUrls ?? SITEMAP_MAX_URLS;
  const maxBytes = limits.maxBytes ?? SITEMAP_MAX_BYTES;
  const fixed = Buffer.byteLength(HEAD) + Buffer.byteLength(TAIL);
  const chunks: { lines: string[]; lastmod: number | null }[] = [];
  let current: { lines: string[]; lastmod: number | null; bytes: number } | null = null;
  for (const url of urls) {
    const line = urlLine(url);
    const bytes = Buffer.byteLength(line) + 1;
    if (!current || current.lines.length >= maxUrls || current.bytes + bytes > maxBytes) {
      current = { lines: [], lastmod: null, bytes: fixed };
      chunks.push(current);
    }
    current.lines.push(line);
    current.bytes += bytes;
    if (url.lastmod && (!current.lastmod || url.lastmod > current.lastmod)) current.lastmod = url.lastmod;
  }
  if (chunks.length === 0) chunks.push({ lines: [], lastmod: null });
  const children = new Map<string, string>();
  const entries: SitemapUrl[] = [];
  chunks.forEach((chunk, i) => {
    const name = `sitemap-${i + 1}.xml`;
    children.set(name, `${HEAD}${chunk.lines.join('\n')}${TAIL}`);
    entries.push({ loc: childUrl(name), lastmod: chunk.lastmod });
  });
  return { index: sitemapIndexXml(entries), children };
}

export function robotsTxt(sitemapUrl: string, disallow: string[] = []): string {
  return ['User-agent: *', 'Allow: /', ...disallow.map((path) => `Disallow: ${path}`), '', `Sitemap: ${sitemapUrl}`, ''].join('\n');
}
