/**
 * Spec 2.6 / 2.13 (1) / 6: "You can manage this page as an admin" with "View in Admin" (new tab), filled into
 * each `[data-admin-notice]` mount only when the signed-in user administers its educator (data-educator-id).
 * On a course page (data-course-id) "View in Admin" opens the course.
 */
import { adminLinks } from '../../domain/links.ts';
import { $identity, administers, adminOrigin, loadIdentity } from '../../stores/identity.ts';
import { h } from './dom.ts';

let started = false;

/** Fills every admin notice mount on the page (once; AdminNoticeMount.astro calls it). */
export function initAdminNotice(): void {
  if (started) return;
  started = true;
  const mounts = document.querySelectorAll<HTMLElement>('[data-admin-notice]');
  for (const mount of mounts) watchMount(mount);
  if (mounts.length > 0) void loadIdentity();
}

function watchMount(mount: HTMLElement): void {
  const educatorId = mount.dataset.educatorId ?? '';
  const courseId = mount.dataset.courseId || undefined;
  $identity.subscribe((identity) => {
    mount.querySelector(':scope > .admin-banner')?.remove();
    if (!identity.ready || !administers(identity, educatorId)) return;
    const links = adminLinks(adminOrigin(), educatorId);
    const href = courseId ? links.course(courseId).href : links.dashboard;
    mount.append(
      h('div', { class: 'alert alert--info admin-banner', role: 'status' }, [
        h('span', {}, ['You can manage this page as an admin']),
        h('a', { class: 'btn btn--small btn--secondary', href, target: '_blank', rel: 'noopener' }, ['View in Admin']),
      ]),
    );
  });
}
