/**
 * The account dropdown "My Account" (spec 2.7) in every `[data-account-menu]` mount: the marketplace header and,
 * on minisites, the profile and course headers (never the embed).
 * - Signed out: "Log in or Sign Up" (the main site's /login with this page as the redirect).
 * - Signed in: avatar or coloured initials; full name and e-mail linking to /profile; "Admin Dashboard" listing
 *   each administered educator (logo and name, admin app in a new tab); then "Student Profile" ("User Profile"
 *   when the user administers no educators) with My Courses & Bookings, Saved, User Settings and Log out.
 * The mount holds `<span class="account-menu" aria-busy="true">` until the identity arrives.
 */
import { administersAnyEducator } from '../../domain/roles.ts';
import { initials, initialsColour } from '../../domain/avatars.ts';
import { PROFILE_LINKS, accountSectionLabel, adminLinks } from '../../domain/links.ts';
import { $identity, adminOrigin, loadIdentity, loginHref, logoutHref, type Identity } from '../../stores/identity.ts';
import { flushPendingSave } from '../../stores/saved.ts';
import { h } from './dom.ts';

/** Spec 2.7: the avatar, or coloured initials (spec 9: a 30-colour palette indexed by the first letters). */
export function avatar(identity: Pick<Identity, 'avatar' | 'firstName' | 'lastName' | 'email'>, size = 32): HTMLSpanElement {
  const { firstName, lastName, email } = identity;
  const url = identity.avatar.url;
  const first = firstName || (!lastName ? email ?? '' : '');
  const letters = initials(first, lastName) || '?';
  const el = h('span', { class: 'avatar', 'aria-hidden': 'true', 'data-initials': url ? null : letters }, [
    url ? h('img', { src: url, alt: '', width: size, height: size }) : letters,
  ]);
  el.style.width = `${size}px`;
  el.style.height = `${size}px`;
  el.style.fontSize = `${Math.round(size * 0.4)}px`;
  el.style.background = url ? '#eef2f6' : initialsColour(first, lastName);
  return el;
}

let panels = 0;

function mountMenu(slot: HTMLElement): void {
  const educatorId = slot.dataset.educatorId || undefined;
  const panelId = `account-menu-panel-${(panels += 1)}`;
  let root: HTMLElement = slot.querySelector<HTMLElement>(':scope > .account-menu') ?? slot.appendChild(h('span', { class: 'account-menu', 'aria-busy': 'true' }));
  let open = false;
  let button: HTMLButtonElement | null = null;
  let panel: HTMLElement | null = null;

  const setOpen = (value: boolean) => {
    open = value;
    button?.setAttribute('aria-expanded', String(open));
    if (panel) panel.hidden = !open;
  };
  // Outside clicks and Escape close the panel; Escape gives the focus back to the button.
  document.addEventListener('mousedown', (event) => {
    if (open && !root.contains(event.target as Node)) setOpen(false);
  });
  document.addEventListener('keydown', (event) => {
    if (open && event.key === 'Escape') {
      setOpen(false);
      button?.focus();
    }
  });

  const render = (identity: Identity) => {
    if (!identity.ready) return;
    button = null;
    panel = null;
    let next: HTMLElement;
    if (!identity.authenticated) {
      next = h('div', { class: 'account-menu' }, [
        h('a', { class: 'account-menu__login', href: loginHref({ educatorId }), rel: 'nofollow', 'data-testid': 'account-login' }, ['Log in or Sign Up']),
      ]);
    } else {
      const fullName = [identity.firstName, identity.lastName].filter(Boolean).join(' ');
      const admin = adminOrigin();
      button = h(
        'button',
        { type: 'button', class: 'account-menu__button', 'aria-label': 'My Account', 'aria-haspopup': 'true', 'aria-expanded': String(open), 'aria-controls': panelId },
        [avatar(identity), h('span', {}, ['My Account'])],
        { click: () => setOpen(!open) },
      );
      panel = h('div', { class: 'account-menu__panel', id: panelId, hidden: !open }, [
        h('a', { class: 'account-menu__who', href: '/profile' }, [
          avatar(identity, 40),
          h('span', { class: 'account-menu__who-text' }, [h('strong', {}, [fullName || identity.email]), h('small', {}, [identity.email])]),
        ]),
        administersAnyEducator(identity) &&
          h('div', { class: 'account-menu__section' }, [
            h('p', { class: 'account-menu__label' }, ['Admin Dashboard']),
            h('ul', { class: 'account-menu__list' }, identity.educators.map((educator) =>
              h('li', {}, [
                h('a', { href: adminLinks(admin, educator.id).dashboard, target: '_blank', rel: 'noopener' }, [
                  educator.logo ? h('img', { src: educator.logo, alt: '', width: 24, height: 24 }) : null,
                  h('span', {}, [educator.name]),
                ]),
              ]),
            )),
          ]),
        h('div', { class: 'account-menu__section' }, [
          h('p', { class: 'account-menu__label' }, [accountSectionLabel(identity.educators.length)]),
          h('ul', { class: 'account-menu__list' }, [
            ...PROFILE_LINKS.map((link) => h('li', {}, [h('a', { href: link.href }, [link.label])])),
            h('li', {}, [h('a', { href: logoutHref(), 'data-testid': 'account-logout' }, ['Log out'])]),
          ]),
        ]),
      ]);
      next = h('div', { class: 'account-menu' }, [button, panel]);
    }
    root.replaceWith(next);
    root = next;
  };

  $identity.subscribe(render);
}

let started = false;

/** Fills every account menu mount on the page (once; AccountMount.astro calls it). */
export function initAccountMenu(): void {
  if (started) return;
  started = true;
  const slots = document.querySelectorAll<HTMLElement>('[data-account-menu]');
  slots.forEach(mountMenu);
  if (slots.length > 0) void loadIdentity().then((id) => (id.authenticated ? flushPendingSave() : null));
}
