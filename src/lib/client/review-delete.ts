/**
 * The review author's delete control (spec 2.11, 4 "Review deletion", 6): a trash icon in each review's
 * `[data-review-id][data-reviewer-id]` mount whose reviewer id equals the signed-in studentId → Delete / Cancel →
 * ArchiveReview → the page reloads. The server refuses anyone else (403); hiding the icon is only courtesy.
 * Reviews rendered later (the reviews list and the all-reviews modal load more) get their control too.
 */
import { canDeleteReview } from '../../domain/ratings.ts';
import { $identity, apiFetch, loadIdentity } from '../../stores/identity.ts';
import { h, icon, watchPage } from './dom.ts';

const TRASH =
  '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"><path d="M4 7h16M10 11v6M14 11v6M6 7l1 12a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2l1-12M9 7V4h6v3"></path></svg>';

/** The mounts (empty by design) that hold a control. */
const mounted = new Set<HTMLElement>();

/** Fills a review's mount with its control: the icon, or the Delete / Cancel group while confirming or deleting. */
function showControl(mount: HTMLElement, reviewId: string, state: 'idle' | 'confirming' | 'deleting', error: string | null = null): void {
  if (state === 'idle') {
    mount.replaceChildren(
      h(
        'button',
        { type: 'button', class: 'review-delete__icon', 'aria-label': 'Delete review', title: 'Delete review', 'data-testid': 'review-delete' },
        [icon(TRASH)],
        { click: () => showControl(mount, reviewId, 'confirming') },
      ),
    );
    return;
  }
  const deleting = state === 'deleting';
  mount.replaceChildren(
    h('span', { class: 'review-delete', role: 'group', 'aria-label': 'Delete this review?' }, [
      h('button', { type: 'button', class: 'btn btn--small', disabled: deleting }, ['Delete'], {
        click: async () => {
          showControl(mount, reviewId, 'deleting');
          const res = await apiFetch(`/reviews/${encodeURIComponent(reviewId)}`, { method: 'DELETE' }).catch(() => null);
          if (res && res.ok) {
            location.reload();
            return;
          }
          showControl(mount, reviewId, 'confirming', 'The review could not be deleted. Please try again.');
        },
      }),
      h('button', { type: 'button', class: 'btn btn--small btn--secondary', disabled: deleting }, ['Cancel'], { click: () => showControl(mount, reviewId, 'idle') }),
      error && h('span', { class: 'field__error', role: 'alert' }, [error]),
    ]),
  );
}

function refresh(): void {
  const identity = $identity.get();
  const studentId = identity.authenticated ? identity.studentId : null;
  for (const el of mounted) if (!el.isConnected) mounted.delete(el);
  for (const el of document.querySelectorAll<HTMLElement>('[data-reviewer-id][data-review-id]')) {
    const own = canDeleteReview(studentId, { reviewer: { id: el.dataset.reviewerId } });
    if (own && !mounted.has(el)) {
      mounted.add(el);
      showControl(el, el.dataset.reviewId as string, 'idle');
    } else if (!own && mounted.has(el)) {
      mounted.delete(el);
      el.replaceChildren();
    }
  }
}

let started = false;

/** Watches the page's reviews for the signed-in author's own (once; ReviewActionsMount.astro calls it). */
export function initReviewDelete(): void {
  if (started) return;
  started = true;
  $identity.subscribe((identity) => {
    if (!identity.ready) return;
    refresh();
    // Tells whoever waits for the page (a browser test) that the controls now match the signed-in learner.
    document.documentElement.dataset.reviewActionsReady = 'true';
  });
  void loadIdentity().then(() => watchPage(refresh));
}
