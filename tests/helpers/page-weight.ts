/**
 * The JavaScript a pre-rendered page loads, measured the way `npm run bench:build` reports it and the page-weight
 * browser test asserts it: every /_astro/*.js the HTML names (module scripts, island components and renderers,
 * inline imports) and their static imports, each file gzipped on its own as served (zlib level 6).
 */
import { gzipSync } from 'node:zlib';

export const GZIP_LEVEL = 6;

const ASTRO_REF = /["'](\/_astro\/[^"'?#\s]+\.js)["']/g;
/** Static imports in Vite's output: import{a}from"./x.js"; import"./x.js"; export{a}from"./x.js". */
const STATIC_IMPORT = /(?:^|[;\s}])(?:import|export)\s*(?:[\w$*{}\s,]+?\s*from\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g;

export interface ScriptInfo {
  /** Gzipped size in bytes (0 when the file is missing). */
  gzip: number;
  /** Root-relative paths of its static imports. */
  imports: string[];
  /** Its text, for tests that look inside. */
  text: string;
}

/** Reads and measures one /_astro/ file; `read` returns null when it does not exist. */
export function scriptInfo(ref: string, code: Buffer | null): ScriptInfo {
  if (!code) return { gzip: 0, imports: [], text: '' };
  const text = code.toString('utf8');
  const base = ref.slice(0, ref.lastIndexOf('/') + 1);
  const imports = [...text.matchAll(STATIC_IMPORT)].map((m) => new URL(m[1]!, `http://x${base}`).pathname);
  return { gzip: gzipSync(code, { level: GZIP_LEVEL }).length, imports, text };
}

/** The /_astro/*.js files an HTML page names. */
export function namedScripts(html: string): string[] {
  return [...new Set([...html.matchAll(ASTRO_REF)].map((m) => m[1]!))];
}

/** React's own code (react, react-dom) names its element types with Symbol.for('react.…') (the minifier may quote with backticks). */
const REACT_CODE = /Symbol\.for\(["'`]react\./;

export function isReactScript(info: Pick<ScriptInfo, 'text'>): boolean {
  return REACT_CODE.test(info.text);
}

export interface PageScripts {
  /** Root-relative paths of every file loaded, in discovery order. */
  files: string[];
  /** Total gzipped bytes. */
  gzip: number;
  /** Whether any of them is React (react or react-dom). */
  react: boolean;
}

/** The page's scripts and their static imports; `load` gives a file's info (cache it across pages). */
export async function jsClosure(html: string, load: (ref: string) => ScriptInfo | Promise<ScriptInfo>): Promise<PageScripts> {
  const seen = new Set<string>();
  const queue = namedScripts(html).reverse();
  let gzip = 0;
  let react = false;
  while (queue.length) {
    const ref = queue.pop()!;
    if (seen.has(ref)) continue;
    seen.add(ref);
    const info = await load(ref);
    gzip += info.gzip;
    react ||= isReactScript(info);
    queue.push(...[...info.imports].reverse());
  }
  return { files: [...seen], gzip, react };
}
