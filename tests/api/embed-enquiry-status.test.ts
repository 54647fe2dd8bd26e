/**
 * The embed's enquiry shell (/embed/enquiry?educator={slug}) answers 404 for an educator that has no
 * enquiry data (unknown, or not contactable, so never built), and 200 for one that has.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let dist: string;

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'embed-enquiry-'));
  mkdirSync(join(dist, 'client', 'embed', 'enquiry'), { recursive: true });
  mkdirSync(join(dist, 'client', 'embed', 'clay-studio'), { recursive: true });
  writeFileSync(join(dist, 'client', 'embed', 'enquiry', 'index.html'), '<!doctype html><title>Send a message</title>');
  writeFileSync(join(dist, 'client', 'embed', 'clay-studio', 'enquiry.json'), '{}');
  writeFileSync(join(dist, 'client', '404.html'), '<!doctype html><title>Page not found</title><h1>404 - Not found</h1>');
  server = await startTestServer({ DIST_DIR: dist });
});

afterAll(async () => {
  await server?.close();
  rmSync(dist, { recursive: true, force: true });
});

it('answers 200 for a known educator and 404 for an unknown, missing or malformed one', async () => {
  const get = async (qs: string) => (await fetch(`${server.url}/embed/enquiry${qs}`)).status;
  expect(await get('?educator=clay-studio')).toBe(200);
  expect(await get('?educator=clay-studio&course_ref=crs_1&course_name=Wheel')).toBe(200);
  expect(await get('?educator=nobody-here')).toBe(404);
  expect(await get('')).toBe(404);
  expect(await get('?educator=..%2F..%2Fetc')).toBe(404);
  const res = await fetch(`${server.url}/embed/enquiry?educator=nobody-here`);
  expect(await res.text()).toContain('404 - Not found');
});
