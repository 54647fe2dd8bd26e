/**
 * The layering check (npm run lint:layers, scripts/lint-layers.ts with .dependency-cruiser.cjs) fails on a wrong
 * import: a copy of a small clean tree (tests/fixtures/layers) gets one file per rule that imports the wrong way,
 * .astro pages among them, and the check must name each of those and nothing else (the clean files, and the
 * type-only imports it allows, pass).
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLayers } from '../../scripts/lint-layers.ts';

const wrong: Record<string, string> = {
  // A pure rule reaching the database.
  'src/domain/bad.ts': "import { things } from '../../db/queries/things.ts';\nexport const n = things().length;\n",
  // A query reaching up into the API.
  'db/queries/bad.ts': "import { listThings } from '../../api/things/service.ts';\nexport const n = listThings().length;\n",
  // A service importing a route module (only api/app.ts and the route table it mounts may).
  'api/things/bad.ts': "import { thingRoutes } from '../routes/things.ts';\nexport const r = thingRoutes();\n",
  // Site code running API code (a type-only import of it is allowed: see src/lib/build-data.ts).
  'src/lib/bad.ts': "import { listThings } from '../../api/things/service.ts';\nexport const n = listThings().length;\n",
  // A cycle.
  'src/lib/cycle-a.ts': "import { b } from './cycle-b.ts';\nexport const a = (): number => b() + 1;\n",
  'src/lib/cycle-b.ts': "import { a } from './cycle-a.ts';\nexport const b = (): number => (Math.random() > 2 ? a() : 0);\n",
  // A page querying the database in its frontmatter, and one in its bundled <script>.
  'src/pages/bad.astro': "---\nimport { things } from '../../db/queries/things.ts';\nconst list = things();\n---\n<p>{list.length}</p>\n",
  'src/pages/script.astro': "<p>hi</p>\n<script>\n  import { things } from '../../db/queries/things.ts';\n  console.log(things());\n</script>\n",
  // The route table api/app.ts mounts, importing a route module (allowed).
  'api/routes/index.ts': "import { thingRoutes } from './things.ts';\nexport const routeTable = [thingRoutes];\n",
  // A page doing it right: the build's reads, and a type from the database (allowed).
  'src/pages/good.astro': "---\nimport { pageThings } from '../lib/build-data.ts';\nimport type { Thing } from '../../db/queries/things.ts';\nconst list: Thing[] = pageThings();\n---\n<p>{list.length}</p>\n<script is:inline>import('/not-ours.js');</script>\n",
};

describe('npm run lint:layers', () => {
  let root: string;
  let result: ReturnType<typeof checkLayers>;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'layers-'));
    cpSync('tests/fixtures/layers', root, { recursive: true });
    for (const [file, code] of Object.entries(wrong)) {
      // Git keeps no empty folders: the fixture has no src/pages of its own.
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), code);
    }
    result = checkLayers({ root });
  }, 60_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('fails, naming each wrong import by its rule, and only those', () => {
    expect(result.exitCode).not.toBe(0);
    // A cycle is reported once, from whichever of its modules comes first, as the path round it.
    const found = [...result.report.matchAll(/^\s*error ([\w-]+): (\S+) →\s+(\S+)/gm)]
      .map((m) => (m[1] === 'no-circular' ? `no-circular: ${[m[2], m[3]].sort().join(' ⇄ ')}` : `${m[1]}: ${m[2]} → ${m[3]}`))
      .sort();
    expect(found).toEqual([
      'db-not-up: db/queries/bad.ts → api/things/service.ts',
      'domain-is-pure: src/domain/bad.ts → db/queries/things.ts',
      'no-circular: src/lib/cycle-a.ts ⇄ src/lib/cycle-b.ts',
      'pages-no-database: src/pages/bad.astro → db/queries/things.ts',
      'pages-no-database: src/pages/script.astro → db/queries/things.ts',
      'routes-only-from-app: api/things/bad.ts → api/routes/things.ts',
      'src-not-api: src/lib/bad.ts → api/things/service.ts',
    ]);
  });
});
