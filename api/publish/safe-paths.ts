/**
 * The publisher and the full build write files named after slugs. A slug is checked where it is stored
 * (src/domain/slugs.ts, enforced by the database), and here again where it becomes a path: a file that would
 * resolve outside the site's folder — or an educator's file outside that educator's own folders — is refused
 * before anything is written or removed, whatever the database held. `../../../x` cannot escape the site and
 * `../{other-educator}` cannot replace another educator's page; an educator slug `..` is never walked.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { educatorFolders } from '../../src/domain/publish-pages.ts';
import { isSafeSlug } from '../../src/domain/slugs.ts';

export class UnsafeSitePathError extends Error {}

function inside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

/**
 * The absolute path of `file` (relative to dist/client), refused unless it lies inside `clientDir` and, when
 * `folders` are given, inside one of them (also relative to dist/client).
 */
export function siteFilePath(clientDir: string, file: string, folders?: readonly string[]): string {
  const root = resolve(clientDir);
  const path = resolve(root, file);
  if (file.includes('\0') || !inside(root, path)) throw new UnsafeSitePathError(`refused to touch ${JSON.stringify(file)}: outside the site's folder`);
  if (folders && !folders.some((folder) => inside(resolve(root, folder), path))) {
    throw new UnsafeSitePathError(`refused to touch ${JSON.stringify(file)}: outside ${folders.map((f) => JSON.stringify(f)).join(', ')}`);
  }
  return path;
}

/** An educator's folders (src/domain/publish-pages.ts), refused when its slug is not one safe path segment. */
export function safeEducatorFolders(slug: string): string[] {
  if (!isSafeSlug(slug)) throw new UnsafeSitePathError(`refused educator slug ${JSON.stringify(slug)}: not a safe path segment`);
  return educatorFolders(slug);
}

/** Checks that every file of an educator lies in that educator's folders; returns the files unchanged. */
export function educatorFilesOnly<T extends [string, string]>(slug: string, files: T[]): T[] {
  const folders = safeEducatorFolders(slug);
  for (const [file] of files) siteFilePath('/site', file, folders);
  return files;
}

/**
 * A file's name in the site (`minisite/clay/index.html`: what a PageTarget writes), refused as siteFilePath
 * refuses it; dot segments resolved, so the name a check passed is the name written.
 */
export function siteKey(file: string, folders?: readonly string[]): string {
  const root = resolve('/site');
  return relative(root, siteFilePath(root, file, folders)).split(sep).join('/');
}
