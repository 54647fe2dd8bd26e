/**
 * The Identity shape of spec 3 ("iam"), as GET /api/identity answers it:
 * authenticated, ready, id / userId, studentId, email, emailConfirmed, firstName, lastName, avatar.url,
 * educators[] of {id, name, logo}. `site` tells the islands where the main site and the admin app are and
 * whether this host gets its session by hand-off (api/auth/README.md).
 */
import type { Db } from '../../db/client.ts';
import type { Config } from '../config.ts';
import type { RequestSite } from '../deps.ts';
import type { SessionUser } from '../../src/domain/session-user.ts';
import { adminOrigin, mainSiteOrigin } from '../shared/origins.ts';
import { usesHandoff } from './site.ts';

export interface IdentityEducator {
  id: string;
  name: string;
  logo: string | null;
  slug: string;
}

export interface Identity {
  authenticated: boolean;
  ready: true;
  id: string | null;
  userId: string | null;
  studentId: string | null;
  email: string | null;
  emailConfirmed: boolean;
  firstName: string | null;
  lastName: string | null;
  avatar: { url: string | null };
  educators: IdentityEducator[];
  site: {
    context: RequestSite['context'];
    mainOrigin: string;
    adminOrigin: string;
    /** True on a minisite whose session comes by hand-off from the main host (localhost and IP hosts). */
    handoff: boolean;
  };
}

export async function educatorsOf(db: Db, ids: string[]): Promise<IdentityEducator[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('educators').select(['id', 'name', 'logo_url', 'slug']).where('id', 'in', ids).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    return r ? [{ id: r.id, name: r.name, logo: r.logo_url, slug: r.slug }] : [];
  });
}

export async function identityOf(db: Db, user: SessionUser | null, site: RequestSite, config: Config): Promise<Identity> {
  const siteInfo = {
    context: site.context,
    mainOrigin: mainSiteOrigin(config),
    adminOrigin: adminOrigin(config),
    handoff: site.context === 'minisite' && usesHandoff(config),
  };
  if (!user) {
    return {
      authenticated: false, ready: true, id: null, userId: null, studentId: null, email: null, emailConfirmed: false,
      firstName: null, lastName: null, avatar: { url: null }, educators: [], site: siteInfo,
    };
  }
  return {
    authenticated: true,
    ready: true,
    id: user.id,
    userId: user.id,
    studentId: user.studentId,
    email: user.email,
    emailConfirmed: user.emailConfirmed,
    firstName: user.firstName,
    lastName: user.lastName,
    avatar: { url: user.avatarUrl },
    educators: await educatorsOf(db, user.educatorIds),
    site: siteInfo,
  };
}
