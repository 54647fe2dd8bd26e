// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import node from '@astrojs/node';
import shareImages from './src/integrations/share-images.ts';
import precompress from './src/integrations/precompress.ts';
import clientChunks from './src/integrations/client-chunks.ts';
import scriptHashes from './src/integrations/script-hashes.ts';

// Pages are pre-rendered from the database at build time (output: 'static');
// pages that set `export const prerender = false` are rendered on demand by api/server.ts,
// which mounts the adapter's handler in middleware mode.
export default defineConfig({
  output: 'static',
  // Tests and benchmarks build into their own folders so builds never overwrite each other.
  outDir: process.env.ASTRO_OUT_DIR || './dist',
  adapter: node({ mode: 'middleware' }),
  // shareImages: PNG share images rendered from the SVG artwork (src/integrations/share-images.ts).
  // clientChunks: the browser's JavaScript in a few chunks grouped by the pages that use them (page weight).
  // scriptHashes: the inline scripts the build makes, hashed for the pages' Content-Security-Policy.
  // precompress (last, so it sees every file): .br and .gz beside each text file (src/integrations/precompress.ts).
  integrations: [react(), clientChunks(), scriptHashes(), shareImages(), precompress()],
  build: { format: 'directory', concurrency: 4 },
  trailingSlash: 'ignore',
  devToolbar: { enabled: false },
  vite: {
    ssr: { external: ['better-sqlite3', 'pg'] },
  },
});
