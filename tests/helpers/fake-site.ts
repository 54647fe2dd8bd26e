/**
 * A built site without a build, for tests of where pages go (the publisher, its targets, the servers that read
 * them): dist/server/entry.mjs is a stand-in for the built handler that answers each publish render with the route,
 * the educator and the course it was asked for (so an edit shows in the page), and dist/client has the files
 * `astro build` would leave that the tests need (the 404 page, a fingerprinted script).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const FAKE_ENTRY = `
export function handler(req, res, next, locals) {
  const job = locals && locals.publishRender;
  if (!job) return next();
  const props = job.props || {};
  const educator = props.model && props.model.educator ? props.model.educator.name + ' (' + props.model.educator.slug + ')' : '-';
  const course = props.courseModel ? props.courseModel.course.name : '-';
  res.statusCode = 200;
  res.setHeader('content-type', 'text/html');
  // Long enough to be worth compressing on disk too (src/lib/site-files.ts MIN_COMPRESS_BYTES).
  res.end('<!doctype html><title>' + req.url + '</title><p>' + req.url + ' in ' + job.context + ' of ' + educator + ': ' + course + '</p>'
    + '<p class="filler">Courses, dates and reviews of an educator, as the publisher renders them.</p>'.repeat(8));
}
`;

/** Writes the stand-in site into `distDir`. */
export function writeFakeSite(distDir: string): void {
  mkdirSync(join(distDir, 'server'), { recursive: true });
  writeFileSync(join(distDir, 'server', 'entry.mjs'), FAKE_ENTRY);
  mkdirSync(join(distDir, 'client', '_astro'), { recursive: true });
  writeFileSync(join(distDir, 'client', '404.html'), `<!doctype html><title>Not found</title>${'<p>No page here.</p>'.repeat(20)}`);
  writeFileSync(join(distDir, 'client', '_astro', 'site.abc123.js'), `export const site = ${JSON.stringify('x'.repeat(400))};`);
}
