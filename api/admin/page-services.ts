/** The server side of the admin app's pages (src/lib/admin-page-services.ts). */
import type { Deps } from '../deps.ts';
import type { AdminPageServices } from '../../src/lib/admin-page-services.ts';
import { educatorsOf } from '../auth/identity.ts';
import { adminOrigin } from '../shared/origins.ts';
import { coursePreviewProps } from './courses-preview.ts';

export function createAdminPageServices(deps: Deps): AdminPageServices {
  return {
    educators: (ids) => educatorsOf(deps.db, ids),
    adminOrigin: () => adminOrigin(deps.config),
    coursePreview: (educatorId, courseId) => coursePreviewProps(deps, educatorId, courseId),
  };
}
