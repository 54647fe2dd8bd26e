/**
 * After a save: "Publishing…" until the publisher has written every page the save touched, then the spec's
 * "Live on the marketplace, your site and your embed" with a link to each; a page that failed is said so (it is
 * retried). Polls /publish-status every second for up to a minute; announced to screen readers (role=status).
 */
import { useEffect, useState } from 'react';
import { adminFetch } from './api.ts';
import { LIVE_TEXT, type LivePages } from '../../domain/admin-publish.ts';

interface Status { live: boolean; pending: number; failing: number; pages: LivePages | null }

export default function PublishStatus({ educatorId, courseId, savedAt }: { educatorId: string; courseId?: string | null; savedAt: number | null }) {
  const [status, setStatus] = useState<Status | null>(null);
  const [gaveUp, setGaveUp] = useState(false);

  useEffect(() => {
    if (savedAt === null) return;
    let stopped = false;
    const started = Date.now();
    setStatus(null);
    setGaveUp(false);
    const tick = async () => {
      const query = courseId ? `?courseId=${encodeURIComponent(courseId)}` : '';
      const res = await adminFetch<Status>('GET', `/educators/${encodeURIComponent(educatorId)}/publish-status${query}`);
      if (stopped) return;
      if (res.ok) setStatus(res.data);
      if (res.ok && res.data.live) return;
      if (Date.now() - started > 60_000) return setGaveUp(true);
      setTimeout(tick, 1000);
    };
    void tick();
    return () => {
      stopped = true;
    };
  }, [educatorId, courseId, savedAt]);

  if (savedAt === null) return null;
  return (
    <div className="admin-status" role="status" data-testid="publish-status" data-live={status?.live ? 'true' : 'false'} data-kind={status?.failing ? 'error' : status?.live ? 'success' : undefined}>
      {status?.live && status.pages ? (
        <p>
          {LIVE_TEXT}:{' '}
          <a href={status.pages.marketplace} target="_blank" rel="noopener">marketplace</a>,{' '}
          <a href={status.pages.minisite} target="_blank" rel="noopener">your site</a>,{' '}
          <a href={status.pages.embed} target="_blank" rel="noopener">your embed</a>.
        </p>
      ) : status?.failing ? (
        <p>Saved. {status.failing} page update(s) failed and will be retried automatically.</p>
      ) : gaveUp ? (
        <p>Saved. Your pages are still being updated; check back in a minute.</p>
      ) : (
        <p>Saved. Publishing your pages…</p>
      )}
    </div>
  );
}
