/**
 * Spec 2.6 / 2.13 (1) / 6: "You can manage this page as an admin" with "View in Admin" (new tab), shown only
 * when the signed-in user administers this educator. On a course page "View in Admin" opens the course.
 */
import { useEffect } from 'react';
import { useStore } from '@nanostores/react';
import { $identity, administers, adminOrigin, loadIdentity } from '../../stores/identity.ts';
import { adminLinks } from '../../domain/links.ts';
import './account.css';

export default function AdminNotice({ educatorId, courseId }: { educatorId: string; courseId?: string }) {
  const identity = useStore($identity);
  useEffect(() => {
    void loadIdentity();
  }, []);
  if (!identity.ready || !administers(identity, educatorId)) return null;
  const links = adminLinks(adminOrigin(), educatorId);
  const href = courseId ? links.course(courseId).href : links.dashboard;
  return (
    <div className="alert alert--info admin-banner" role="status">
      <span>You can manage this page as an admin</span>
      <a className="btn btn--small btn--secondary" href={href} target="_blank" rel="noopener">View in Admin</a>
    </div>
  );
}
