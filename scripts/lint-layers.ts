/**
 * `npm run lint:layers` (tsx scripts/lint-layers.ts): the layering rules of .dependency-cruiser.cjs over api/, db/ and src/, .astro files
 * included (docs/TEAM.md "Layers"). Exits 1 when a rule of severity error is broken; warnings are printed.
 *
 * dependency-cruiser reads TypeScript and JavaScript but not .astro, whose imports are in the frontmatter and in
 * its <script> blocks. So the three folders are copied to a scratch folder under .tmp/ (inside the project, so
 * node_modules and tsconfig.json resolve as they do here), each `X.astro` replaced there by `X.astro.ts` holding
 * just its import statements (an importer's './X.astro' then resolves to it), and the copy is cruised with the
 * project's config; the report names the .astro files again.
 *
 *   tsx scripts/lint-layers.ts [--root DIR]     (DIR: a tree with api/, db/, src/; tests use a fixture)
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import ts from 'typescript';

const PROJECT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const FOLDERS = ['api', 'db', 'src'];

/** The import statements (static, re-exports and dynamic) of some TypeScript, as TypeScript. */
export function importsOf(code: string): string[] {
  const source = ts.createSourceFile('x.ts', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) out.push(node.getText(source));
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      out.push(`void import(${node.arguments[0].getText(source)});`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** The code of an .astro file that can import: its frontmatter and the <script> blocks Astro bundles. */
export function astroCode(text: string): string {
  const parts: string[] = [];
  const front = /^\s*---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  if (front) parts.push(front[1]);
  for (const m of text.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/g)) {
    const attributes = m[1] ?? '';
    // Inline and data scripts are not bundled: nothing in them is imported.
    if (/is:inline|set:html|application\/ld\+json/.test(attributes)) continue;
    parts.push(m[2]);
  }
  return parts.join('\n');
}

function replaceAstroFiles(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) replaceAstroFiles(path);
    else if (entry.name.endsWith('.astro')) {
      writeFileSync(`${path}.ts`, `${importsOf(astroCode(readFileSync(path, 'utf8'))).join('\n')}\n`);
      unlinkSync(path);
    }
  }
}

/**
 * Cruises `root` (a tree with api/, db/ and src/) with the project's rules. Returns the exit code (non-zero when a
 * rule of severity error is broken) and dependency-cruiser's report, with the .astro files' own names.
 */
export function checkLayers({ root = PROJECT, outputType = 'err' }: { root?: string; outputType?: string } = {}): { exitCode: number; report: string } {
  mkdirSync(join(PROJECT, '.tmp'), { recursive: true });
  const scratch = mkdtempSync(join(PROJECT, '.tmp', 'layers-'));
  try {
    for (const folder of FOLDERS) {
      if (existsSync(join(root, folder))) cpSync(join(root, folder), join(scratch, folder), { recursive: true });
    }
    replaceAstroFiles(scratch);
    cpSync(join(PROJECT, '.dependency-cruiser.cjs'), join(scratch, '.dependency-cruiser.cjs'));
    cpSync(join(existsSync(join(root, 'tsconfig.json')) ? root : PROJECT, 'tsconfig.json'), join(scratch, 'tsconfig.json'));
    const bin = join(PROJECT, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');
    const folders = FOLDERS.filter((folder) => existsSync(join(scratch, folder)));
    const run = spawnSync(process.execPath, [bin, '--config', '.dependency-cruiser.cjs', '--output-type', outputType, '--progress', 'none', ...folders], {
      cwd: scratch, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024,
    });
    const report = `${run.stdout ?? ''}${run.stderr ?? ''}`.replace(/\.astro\.ts\b/g, '.astro');
    return { exitCode: run.status ?? 1, report };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { root: { type: 'string' } } });
  const { exitCode, report } = checkLayers({ root: values.root ? resolve(values.root) : PROJECT });
  process.stdout.write(report);
  process.exit(exitCode);
}
