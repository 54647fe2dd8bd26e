/**
 * Build-time settings of the public pages, read from the same environment variables as the server
 * (api/config.ts): PUBLIC_HOST, PUBLIC_PROTOCOL, MAPS_API_KEY. Server side only (page frontmatter,
 * endpoints); islands receive what they need as props.
 */
import { mainOrigin, minisiteOrigin } from '../domain/links.ts';
import type { LinkContext } from './types.ts';
import type { AppContext } from '../domain/app-context.ts';

export interface SiteConfig {
  /** The marketplace host as users type it, e.g. 'localhost:4321' or 'example.co.uk'. */
  host: string;
  protocol: 'http' | 'https';
  /** Embedded maps are shown only when a key is set at build time. */
  mapsApiKey: string;
}

export const PRODUCT_NAME = 'Course Marketplace';

let cached: SiteConfig | undefined;

export function siteConfig(): SiteConfig {
  cached ??= {
    host: (process.env.PUBLIC_HOST || `localhost:${process.env.PORT || 4321}`).trim().toLowerCase(),
    protocol: process.env.PUBLIC_PROTOCOL === 'https' ? 'https' : 'http',
    mapsApiKey: process.env.MAPS_API_KEY || '',
  };
  return cached;
}

/** Absolute marketplace URL of a path ('/x' → 'http://host/x'). */
export function marketplaceUrl(path: string): string {
  const { host, protocol } = siteConfig();
  return `${mainOrigin(host, protocol)}${path.startsWith('/') ? path : `/${path}`}`;
}

/** Absolute minisite URL of a path on {educatorSlug}.{host}. */
export function minisiteUrl(educatorSlug: string, path: string): string {
  const { host, protocol } = siteConfig();
  const origin = minisiteOrigin(educatorSlug, host, protocol);
  return path === '/' || path === '' ? `${origin}/` : `${origin}${path.startsWith('/') ? path : `/${path}`}`;
}

/** The link context islands use with src/domain/links.ts. */
export function linkContext(context: AppContext, educatorSlug: string): LinkContext {
  const { host, protocol } = siteConfig();
  return { context, currentEducatorSlug: context === 'minisite' ? educatorSlug : null, host, protocol };
}
