/**
 * The save (heart) button of every course card on the page (spec 2.12, 4 "Saved course"), never in the embed.
 * Each card's empty `[data-save-course]` mount (data-course-name) receives a button, including cards added later
 * (search results). Signed out, a click opens the "Log in to save this course" dialog rendered by
 * SaveHeartsMount.astro; after login the course is saved (stores/saved.ts).
 */
import { $identity, currentContext, loadIdentity, loginHref } from '../../stores/identity.ts';
import { $saved, flushPendingSave, loadSavedStatus, rememberPendingSave, setSaved } from '../../stores/saved.ts';
import { h, icon, setAttrs, watchPage } from './dom.ts';

const HEART_PATH = 'M12 21s-7.5-4.6-9.6-9.1C.9 8.6 2.9 4.5 6.7 4.5c2.2 0 3.6 1.2 4.3 2.4.7-1.2 2.1-2.4 4.3-2.4 3.8 0 5.8 4.1 4.3 7.4C19.5 16.4 12 21 12 21z';
const HEART = `<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="${HEART_PATH}" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linejoin="round"></path></svg>`;

interface Mount {
  courseId: string;
  name: string | null;
  button: HTMLButtonElement;
}

const mounts = new Map<HTMLElement, Mount>();
let dialog: HTMLDialogElement | null = null;
/** The course whose heart opened the login dialog. */
let pending: Mount | null = null;
let started = false;

/** Sets a button's state from the saved map (the local choice, else the server's answer). */
function paint(mount: Mount, saved: Record<string, boolean>): void {
  const on = !!saved[mount.courseId];
  const name = mount.name ?? 'this course';
  setAttrs(mount.button, {
    'aria-pressed': String(on),
    'aria-label': on ? `Remove ${name} from Saved` : `Save ${name}`,
    title: on ? 'Saved' : 'Save',
  });
  mount.button.querySelector('path')?.setAttribute('fill', on ? 'currentColor' : 'none');
}

function openLoginModal(mount: Mount): void {
  if (!dialog) return;
  pending = mount;
  const text = dialog.querySelector('[data-save-login-text]');
  if (text) {
    text.textContent = mount.name
      ? `Log in or create a free account to save ${mount.name} and find it later under Saved.`
      : 'Log in or create a free account to save courses and find them later under Saved.';
  }
  if (!dialog.open) dialog.showModal();
}

async function toggle(mount: Mount): Promise<void> {
  const current = $identity.get();
  const identity = current.ready ? current : await loadIdentity();
  if (!identity.authenticated) {
    openLoginModal(mount);
    return;
  }
  await setSaved(mount.courseId, !$saved.get()[mount.courseId]);
}

function refresh(): void {
  let added = false;
  for (const [el] of mounts) if (!el.isConnected) mounts.delete(el);
  for (const el of document.querySelectorAll<HTMLElement>('[data-save-course]')) {
    const courseId = el.dataset.saveCourse;
    if (!courseId || mounts.has(el)) continue;
    const mount: Mount = { courseId, name: el.dataset.courseName ?? null, button: h('button', { type: 'button', class: 'save-heart', 'data-testid': 'save-heart' }, [icon(HEART)]) };
    mount.button.addEventListener('click', (event) => {
      // The card is a link: the heart must not follow it.
      event.preventDefault();
      event.stopPropagation();
      void toggle(mount);
    });
    paint(mount, $saved.get());
    mounts.set(el, mount);
    el.append(mount.button);
    added = true;
  }
  if (added && $identity.get().authenticated) void loadSavedStatus([...mounts.values()].map((m) => m.courseId));
}

/** Fills every heart mount on the page, now and as cards arrive (once; SaveHeartsMount.astro calls it). */
export function initSaveHearts(): void {
  if (started) return;
  started = true;
  if (currentContext() === 'embed' || location.pathname.startsWith('/embed')) return;
  dialog = document.querySelector<HTMLDialogElement>('dialog[data-save-hearts]');
  if (dialog) {
    const modal = dialog;
    // On a minisite, its educator: the modal's login carries &educator= (spec 2.5; not from the marketplace).
    const educatorId = modal.dataset.educatorId || undefined;
    modal.querySelector('[data-save-login]')?.addEventListener('click', () => {
      if (!pending) return;
      rememberPendingSave(pending.courseId);
      // Hearts are never in the embed, so the login is the main site's page (the embed's window is embed-login.ts).
      location.assign(loginHref({ educatorId }));
    });
    modal.querySelector('[data-save-cancel]')?.addEventListener('click', () => modal.close());
    modal.addEventListener('close', () => {
      pending = null;
    });
  }
  watchPage(refresh);
  $saved.subscribe((saved) => mounts.forEach((mount) => paint(mount, saved)));
  $identity.subscribe((identity) => {
    if (identity.authenticated && mounts.size) void loadSavedStatus([...mounts.values()].map((m) => m.courseId));
  });
  void loadIdentity().then(async (id) => {
    if (id.authenticated) await flushPendingSave();
  });
}
