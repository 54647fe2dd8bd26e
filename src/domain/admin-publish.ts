/**
 * Where an educator's (or a course's) public pages live in the three contexts, for the admin's "Live on the
 * marketplace, your site and your embed" line after a save (absolute URLs, built from the spec's link rules).
 */
import { mainOrigin, minisiteOrigin } from './links.ts';

export interface LivePages {
  marketplace: string;
  minisite: string;
  embed: string;
}

export function livePages(input: { host: string; protocol?: string | null; educatorSlug: string; courseSlug?: string | null }): LivePages {
  const main = mainOrigin(input.host, input.protocol);
  const site = minisiteOrigin(input.educatorSlug, input.host, input.protocol);
  const course = input.courseSlug ? `/${input.courseSlug}` : '';
  return {
    marketplace: `${main}/${input.educatorSlug}${course}`,
    minisite: `${site}${course || '/'}`,
    embed: `${main}/embed/${input.educatorSlug}${course}`,
  };
}

/** The sentence the admin shows once every page of a save is fresh (the spec of the admin, docs/admin.md). */
export const LIVE_TEXT = 'Live on the marketplace, your site and your embed';
