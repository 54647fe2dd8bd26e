/**
 * The code's layers, checked by `npm run lint:layers` (scripts/lint-layers.mjs, which also reads the .astro files
 * dependency-cruiser cannot) and so by `npm run lint` and .ci/run. docs/TEAM.md "Layers" draws them:
 *
 *   pages (src/pages, components, layouts, islands, stores)
 *     → services: page services (api/pages/services.ts, handed over in Astro.locals) and the build's reads
 *       (src/lib/build-data.ts)
 *       → src/domain (pure rules) and db/ (schema, queries)
 *   adapters (api/routes, api/payments, api/mail, api/http …) → the same services, domain and db
 *   composition root: api/app.ts (and api/server.ts, which starts it) and the route table it mounts
 *   (api/routes/index.ts) — the only importers of api/routes.
 *
 * Nothing imports upward and nothing goes round in a circle. Tests may import anything (they are not cruised).
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import cycle: the modules cannot be understood, tested or loaded one without the other.',
      severity: 'error',
      from: { path: '^(api|db|src)/' },
      to: { circular: true },
    },
    {
      name: 'src-not-api',
      comment: 'The site never runs server code: src/ may name the API\'s types, never import its modules.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^api/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'domain-is-pure',
      comment: 'src/domain holds pure rules: it imports nothing from the server, the database or the site.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: ['^api/', '^db/', '^src/(lib|islands|pages|components|layouts|stores|integrations)/'] },
    },
    {
      name: 'db-not-up',
      comment: 'db/ (schema, queries, migrations, seed) is below the API and the site.',
      severity: 'error',
      from: { path: '^db/' },
      to: { path: ['^api/', '^src/(pages|islands|components|lib|layouts|stores|integrations)/'] },
    },
    {
      name: 'routes-only-from-app',
      comment:
        'Route modules are mounted by the composition root (api/app.ts) through the API\'s route table ' +
        '(api/routes/index.ts), and nothing else imports them.',
      severity: 'error',
      from: { path: '^(api|db|src)/', pathNot: ['^api/(app|server)\\.ts$', '^api/routes/index\\.ts$'] },
      to: { path: '^api/routes/' },
    },
    {
      name: 'pages-no-database',
      comment:
        'Pages, components, layouts, islands and stores never query or write the database: on-demand pages ask ' +
        'pageServices (src/lib/page-services.ts), pre-rendered ones read through src/lib/build-data.ts.',
      severity: 'error',
      from: { path: '^src/(pages|components|layouts|islands|stores)/' },
      to: {
        path: ['^db/', '^src/lib/db\\.ts$', 'node_modules/(kysely|better-sqlite3|pg)/'],
        dependencyTypesNot: ['type-only'],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports are seen (and marked type-only), so a cycle through types is a cycle too.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.mjs', '.js', '.d.ts'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
