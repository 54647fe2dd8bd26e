/**
 * What the admin app's on-demand pages (src/pages/admin-app/) ask the server for, the admin's half of
 * src/lib/page-services.ts: the server hands an implementation (api/admin/page-services.ts) to each render as
 * Astro.locals.services.admin. Pages hold no queries; most screens are islands that talk to /api/admin/….
 */
import type { AstroGlobal } from 'astro';
import type { IdentityEducator } from '../../api/auth/identity.ts';
import type { CoursePageProps } from './paths.ts';

export interface AdminPageServices {
  /** The educators this user administers (for the switcher), in the order of their ids. */
  educators(educatorIds: string[]): Promise<IdentityEducator[]>;
  /** The admin host's origin ('http://admin.localhost:4321'). */
  adminOrigin(): string;
  /** A course of the educator (draft or published) as its page's view takes it, for the preview; null: not theirs. */
  coursePreview(educatorId: string, courseId: string): Promise<CoursePageProps | null>;
}

export function adminServices(astro: Pick<AstroGlobal, 'locals'>): AdminPageServices {
  // Read from the locals directly: page-services.ts names this contract, so importing it back would be a cycle.
  const services = (astro.locals as { services?: { admin?: AdminPageServices } }).services?.admin;
  if (!services) throw new Error('Admin pages are rendered by the server (api/server.ts), which provides their services.');
  return services;
}
