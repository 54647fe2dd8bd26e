/**
 * Serving the pre-rendered site from dist/client. A minisite host reads from /minisite/{slug}/…,
 * so one build serves every educator's subdomain. Fingerprinted assets are cached for a year; everything
 * else is revalidated on each use with a strong ETag (304 when unchanged).
 *
 * Text files have brotli and gzip siblings ({file}.br, {file}.gz) made by the build and by
 * src/lib/site-files.ts whenever a page is re-rendered; the one the client prefers (Accept-Encoding, with
 * q-values) is sent with `Vary: Accept-Encoding`. Nothing about the files is remembered between requests
 * except bytes keyed by the file's identity (inode, size, mtime), so a page or sibling swapped in by a
 * rename is seen by the next request, with a new ETag.
 *
 * Speed: every request costs a `stat` of the file and of the chosen sibling (synchronous: on a local disk
 * they answer from the kernel's cache in microseconds, far less than a round trip through the thread pool).
 * Small files' bytes are kept in memory (bounded), and when the Node response is at hand the answer is
 * written to it directly: no web streams and no Response object on the hot path.
 */
import { closeSync, createReadStream, fstatSync, openSync, readFileSync, statSync, type Stats } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join, normalize, sep } from 'node:path';
import { Readable } from 'node:stream';
import { cacheControlOf, contentTypeOf, isCompressible } from '../../src/lib/site-files.ts';


/** Files up to this size are answered from memory once read. */
export const SMALL_FILE_BYTES = 512 * 1024;
/** Total bytes kept in memory; the least recently used files go first. */
export const MEMORY_CACHE_BYTES = 64 * 1024 * 1024;
/**
 * A sibling older than its file by more than this was not written with it (writeSiteFile swaps the siblings
 * in a moment before the file; the build writes them after): the file was replaced some other way, so the
 * sibling holds older content and is not sent.
 */
export const SIBLING_SKEW_MS = 60_000;

export interface StaticFile {
  path: string;
  size: number;
  type: string;
  mtime: Date;
  mtimeMs: number;
  ino: number;
  /** Whether siblings may exist, so the answer varies by Accept-Encoding. */
  compressible: boolean;
}

// URL path → the file it resolved to last time ({path}, {path}/index.html or {path}.html), so a page costs
// one stat instead of three. Only a hint: the file is stat'ed on every request, and a miss resolves again.
const resolved = new Map<string, string>();
const RESOLVED_MAX = 50_000;

function fileOf(path: string, s: Stats): StaticFile {
  const type = contentTypeOf(path);
  return { path, size: s.size, type, mtime: s.mtime, mtimeMs: s.mtimeMs, ino: s.ino, compressible: isCompressible(path, s.size) };
}

/** Finds the file for a URL path under root: the file itself, {path}/index.html or {path}.html. */
export function findStaticFile(root: string, urlPath: string): StaticFile | null {
  const key = `${root}\0${urlPath}`;
  const hint = resolved.get(key);
  if (hint) {
    const s = statSync(hint, { throwIfNoEntry: false });
    if (s?.isFile()) return fileOf(hint, s);
    resolved.delete(key);
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const base = normalize(join(root, decoded));
  if (base !== root && !base.startsWith(root.endsWith(sep) ? root : root + sep)) return null;
  for (const candidate of [base, join(base, 'index.html'), `${base}.html`]) {
    const s = statSync(candidate, { throwIfNoEntry: false });
    if (s?.isFile()) {
      if (resolved.size >= RESOLVED_MAX) resolved.clear();
      resolved.set(key, candidate);
      return fileOf(candidate, s);
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Content coding.

export type Coding = 'br' | 'gzip' | 'identity';

const preferences = new Map<string, Coding[]>();
const PREFERENCES_MAX = 200;

/**
 * The codings a client accepts, best first (RFC 9110 §12.5.3): q-values respected, `*` standing for any coding
 * not named, identity acceptable unless refused; among equal q-values brotli before gzip before identity.
 * Browsers send a handful of distinct headers, so the parsed lists are kept.
 */
export function acceptedCodings(header: string | undefined): Coding[] {
  if (!header) return ['identity'];
  let list = preferences.get(header);
  if (list) return list;
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [rawName, ...params] = part.split(';');
    const name = rawName!.trim().toLowerCase();
    if (!name) continue;
    let weight = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p);
      if (m) weight = Number(m[1]);
    }
    if (!Number.isFinite(weight) || weight < 0) weight = 0;
    q.set(name === 'x-gzip' ? 'gzip' : name, Math.min(weight, 1));
  }
  const star = q.get('*');
  const weightOf = (coding: Coding): number => {
    const explicit = q.get(coding);
    if (explicit !== undefined) return explicit;
    if (star !== undefined) return star;
    // Identity is acceptable unless refused; other codings only when named.
    return coding === 'identity' ? 0.001 : 0;
  };
  const order: Coding[] = ['br', 'gzip', 'identity'];
  list = order
    .map((coding, rank) => ({ coding, rank, weight: weightOf(coding) }))
    .filter((c) => c.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.rank - b.rank)
    .map((c) => c.coding);
  // Nothing acceptable: identity anyway (RFC 9110 lets a server send an uncoded answer then).
  if (!list.length) list = ['identity'];
  if (preferences.size >= PREFERENCES_MAX) preferences.clear();
  preferences.set(header, list);
  return list;
}

// ---------------------------------------------------------------------------------------------
// Small files in memory.

interface Cached {
  ino: number;
  size: number;
  mtimeMs: number;
  data: Buffer;
}
const memory = new Map<string, Cached>();
let memoryBytes = 0;

function remember(path: string, entry: Cached): void {
  const old = memory.get(path);
  if (old) {
    memory.delete(path);
    memoryBytes -= old.size;
  }
  memory.set(path, entry);
  memoryBytes += entry.size;
  for (const [p, e] of memory) {
    if (memoryBytes <= MEMORY_CACHE_BYTES) break;
    memory.delete(p);
    memoryBytes -= e.size;
  }
}

/**
 * The bytes of a small file as it is now, and the identity they belong to. Read through one descriptor
 * (fstat then read), so a file renamed over in between can never pair new bytes with the old identity.
 */
function smallFileBytes(path: string, seen: { ino: number; size: number; mtimeMs: number }): Cached | null {
  const hit = memory.get(path);
  if (hit && hit.ino === seen.ino && hit.size === seen.size && hit.mtimeMs === seen.mtimeMs) {
    // Most recently used last, so eviction takes the coldest.
    memory.delete(path);
    memory.set(path, hit);
    return hit;
  }
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    const s = fstatSync(fd);
    if (!s.isFile()) return null;
    const entry = { ino: s.ino, size: s.size, mtimeMs: s.mtimeMs, data: readFileSync(fd) };
    if (entry.data.length !== entry.size) return null;
    if (entry.size <= SMALL_FILE_BYTES) remember(path, entry);
    return entry;
  } finally {
    closeSync(fd);
  }
}

// ---------------------------------------------------------------------------------------------
// The answer.

export interface RequestFacts {
  method: string;
  acceptEncoding?: string | undefined;
  ifNoneMatch?: string | undefined;
  ifModifiedSince?: string | undefined;
}

export interface StaticAnswer {
  status: number;
  headers: Record<string, string>;
  /** Bytes in memory, or a larger file to stream from its path, or nothing (HEAD, 304). */
  body: Buffer | { path: string; size: number } | null;
}

function tagOf(s: { ino: number; size: number; mtimeMs: number }, coding: Coding): string {
  // Inode, size and modification time (sub-millisecond): a file renamed over gets a new inode and time.
  const id = `${s.ino.toString(36)}-${s.size.toString(36)}-${Math.round(s.mtimeMs * 1000).toString(36)}`;
  return `"${coding === 'identity' ? id : `${id}-${coding}`}"`;
}

/** If-None-Match: the weak comparison RFC 9110 asks for (W/ ignored), `*` matching any current file. */
export function noneMatch(header: string, etag: string): boolean {
  if (header.trim() === '*') return false;
  const bare = etag.replace(/^W\//, '');
  for (const part of header.split(',')) {
    if (part.trim().replace(/^W\//, '') === bare) return false;
  }
  return true;
}

const SIBLING_SUFFIX: Record<Exclude<Coding, 'identity'>, string> = { br: '.br', gzip: '.gz' };

/**
 * What to answer for a found file: the representation the client prefers among those on disk, 304 when the
 * client's copy is current (If-None-Match decides when sent; If-Modified-Since only without it), HEAD
 * without a body. `status` other than 200 (the 404 page) skips the conditional part.
 */
export function staticAnswer(file: StaticFile, urlPath: string, req: RequestFacts, status = 200): StaticAnswer {
  let sent: { path: string; ino: number; size: number; mtimeMs: number } = file;
  let coding: Coding = 'identity';
  if (file.compressible) {
    for (const wanted of acceptedCodings(req.acceptEncoding)) {
      if (wanted === 'identity') break;
      const path = file.path + SIBLING_SUFFIX[wanted];
      const s = statSync(path, { throwIfNoEntry: false });
      if (s?.isFile() && s.mtimeMs >= file.mtimeMs - SIBLING_SKEW_MS) {
        sent = { path, ino: s.ino, size: s.size, mtimeMs: s.mtimeMs };
        coding = wanted;
        break;
      }
    }
  }
  const headers: Record<string, string> = {
    'content-type': file.type,
    'last-modified': file.mtime.toUTCString(),
    'cache-control': cacheControlOf(urlPath),
  };
  if (file.compressible) headers.vary = 'Accept-Encoding';
  if (coding !== 'identity') headers['content-encoding'] = coding;
  const small = sent.size <= SMALL_FILE_BYTES;
  // Small files: the bytes and the identity they were read with, so the ETag always names what is sent.
  const bytes = small && req.method !== 'HEAD' ? smallFileBytes(sent.path, sent) : null;
  if (bytes) sent = { ...sent, ino: bytes.ino, size: bytes.size, mtimeMs: bytes.mtimeMs };
  if (status === 200) {
    const etag = tagOf(sent, coding);
    headers.etag = etag;
    const notModified = req.ifNoneMatch !== undefined
      ? !noneMatch(req.ifNoneMatch, etag)
      : req.ifModifiedSince !== undefined && notModifiedSince(req.ifModifiedSince, file.mtimeMs);
    if (notModified) {
      delete headers['content-type'];
      return { status: 304, headers, body: null };
    }
  }
  headers['content-length'] = String(sent.size);
  if (req.method === 'HEAD') return { status, headers, body: null };
  return { status, headers, body: bytes ? bytes.data : { path: sent.path, size: sent.size } };
}

function notModifiedSince(header: string, mtimeMs: number): boolean {
  const since = Date.parse(header);
  // HTTP dates have whole seconds.
  return Number.isFinite(since) && Math.floor(mtimeMs / 1000) * 1000 <= since;
}

/** Writes the answer straight to the Node response (the fast path: no Response object, no web stream). */
export function writeStaticAnswer(answer: StaticAnswer, res: ServerResponse): void {
  res.writeHead(answer.status, answer.headers);
  const body = answer.body;
  if (!body) {
    res.end();
  } else if (Buffer.isBuffer(body)) {
    res.end(body);
  } else {
    const stream = createReadStream(body.path);
    stream.on('error', () => res.destroy());
    res.on('close', () => stream.destroy());
    stream.pipe(res);
  }
}

/** The same answer as a web Response, for callers without a Node response (app.request in tests). */
export function staticAnswerResponse(answer: StaticAnswer): Response {
  const body = answer.body;
  const payload = !body ? null : Buffer.isBuffer(body) ? new Uint8Array(body) : (Readable.toWeb(createReadStream(body.path)) as ReadableStream);
  return new Response(payload, { status: answer.status, headers: answer.headers });
}
