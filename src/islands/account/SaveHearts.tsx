/**
 * The save (heart) overlay of every course card on the page (spec 2.12, 4 "Saved course"), never in the embed.
 * One island fills every `[data-save-course]` mount with a portal, including cards added later (search results).
 * Signed out, a click opens "Log in to save this course"; after login the course is saved (stores/saved.ts).
 */
import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { useStore } from '@nanostores/react';
import { $identity, currentContext, loadIdentity, startLogin } from '../../stores/identity.ts';
import { $saved, flushPendingSave, loadSavedStatus, rememberPendingSave, setSaved } from '../../stores/saved.ts';
import LoginModal from './LoginModal.tsx';
import './account.css';

interface Mount {
  el: HTMLElement;
  courseId: string;
  name: string | null;
}

function findMounts(): Mount[] {
  return Array.from(document.querySelectorAll<HTMLElement>('[data-save-course]')).flatMap((el) => {
    const courseId = el.dataset.saveCourse;
    return courseId ? [{ el, courseId, name: el.dataset.courseName ?? null }] : [];
  });
}

function Heart({ filled }: { filled: boolean }) {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M12 21s-7.5-4.6-9.6-9.1C.9 8.6 2.9 4.5 6.7 4.5c2.2 0 3.6 1.2 4.3 2.4.7-1.2 2.1-2.4 4.3-2.4 3.8 0 5.8 4.1 4.3 7.4C19.5 16.4 12 21 12 21z"
        fill={filled ? 'currentColor' : 'none'}
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinejoin="round"
      />
    </svg>
  );
}

export default function SaveHearts({ educatorId }: { educatorId?: string }) {
  const identity = useStore($identity);
  const saved = useStore($saved);
  const [mounts, setMounts] = useState<Mount[]>([]);
  const [modal, setModal] = useState<Mount | null>(null);

  useEffect(() => {
    if (currentContext() === 'embed' || location.pathname.startsWith('/embed')) return;
    const refresh = () => {
      const found = findMounts();
      setMounts((prev) => (prev.length === found.length && prev.every((m, i) => m.el === found[i].el) ? prev : found));
    };
    refresh();
    const observer = new MutationObserver(refresh);
    observer.observe(document.body, { childList: true, subtree: true });
    void loadIdentity().then(async (id) => {
      if (id.authenticated) await flushPendingSave();
    });
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (identity.authenticated && mounts.length) void loadSavedStatus(mounts.map((m) => m.courseId));
  }, [identity.authenticated, mounts]);

  async function toggle(mount: Mount) {
    const id = identity.ready ? identity : await loadIdentity();
    if (!id.authenticated) {
      setModal(mount);
      return;
    }
    await setSaved(mount.courseId, !saved[mount.courseId]);
  }

  return (
    <>
      {mounts.map((mount) =>
        createPortal(
          <button
            type="button"
            className="save-heart"
            aria-pressed={!!saved[mount.courseId]}
            aria-label={saved[mount.courseId] ? `Remove ${mount.name ?? 'this course'} from Saved` : `Save ${mount.name ?? 'this course'}`}
            title={saved[mount.courseId] ? 'Saved' : 'Save'}
            data-testid="save-heart"
            onClick={(event) => {
              event.preventDefault();
              event.stopPropagation();
              void toggle(mount);
            }}
          >
            <Heart filled={!!saved[mount.courseId]} />
          </button>,
          mount.el,
          mount.courseId,
        ),
      )}
      <LoginModal
        open={modal !== null}
        courseName={modal?.name}
        onClose={() => setModal(null)}
        onLogin={() => {
          if (!modal) return;
          rememberPendingSave(modal.courseId);
          startLogin({ educatorId });
        }}
      />
    </>
  );
}
