import { describe, expect, it } from 'vitest';
import { chunkFor } from '../../src/integrations/client-chunks.ts';

const root = '/work/app';
const groups = {
  site: new Set([`${root}/src/stores/identity.ts`, `${root}/node_modules/nanostores/atom/index.js`]),
  listing: new Set([`${root}/src/domain/listing.ts`]),
  course: new Set([`${root}/src/domain/listing.ts`, `${root}/src/islands/DatesList.tsx`]),
};

describe('client chunk groups', () => {
  it('puts React, its CommonJS wrappers and the renderer in one chunk', () => {
    expect(chunkFor(`${root}/node_modules/react-dom/cjs/react-dom-client.production.js`, groups)).toBe('react');
    expect(chunkFor(`\0${root}/node_modules/react/index.js?commonjs-exports`, groups)).toBe('react');
    expect(chunkFor('\0commonjsHelpers.js', groups)).toBe('react');
    expect(chunkFor(`${root}/node_modules/@astrojs/react/dist/client.js`, groups)).toBe('react');
  });

  it('site before listing before course; the rest, CSS and Astro scripts left to Rollup', () => {
    expect(chunkFor(`${root}/src/stores/identity.ts`, groups)).toBe('site');
    expect(chunkFor(`${root}/src/domain/listing.ts`, groups)).toBe('listing');
    expect(chunkFor(`${root}/src/islands/DatesList.tsx`, groups)).toBe('course');
    expect(chunkFor(`${root}/src/islands/SearchApp.tsx`, groups)).toBeNull();
    expect(chunkFor(`${root}/src/islands/account/account.css`, groups)).toBeNull();
    expect(chunkFor(`${root}/src/components/AccountMount.astro?astro&type=script&index=0&lang.ts`, groups)).toBeNull();
  });

  it('keeps nanostores beyond atoms out of the page chunks', () => {
    expect(chunkFor(`${root}/node_modules/nanostores/atom/index.js`, groups)).toBe('site');
    expect(chunkFor(`${root}/node_modules/nanostores/listen-keys/index.js`, groups)).toBe('stores');
  });
});
