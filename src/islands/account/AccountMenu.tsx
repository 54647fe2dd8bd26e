/**
 * The account dropdown "My Account" (spec 2.7), in the marketplace header and on minisites (never in the embed).
 * - Signed out: "Log in or Sign Up" (the main site's /login with this page as the redirect).
 * - Signed in: avatar or coloured initials; full name and e-mail linking to /profile; "Admin Dashboard" listing
 *   each administered educator (logo and name, admin app in a new tab); then "Student Profile" ("User Profile"
 *   when the user administers no educators) with My Courses & Bookings, Saved, User Settings and Log out.
 */
import { administersAnyEducator } from '../../domain/roles.ts';
import { useEffect, useId, useRef, useState } from 'react';
import { useStore } from '@nanostores/react';
import { $identity, adminOrigin, loadIdentity, loginHref, logoutHref } from '../../stores/identity.ts';
import { flushPendingSave } from '../../stores/saved.ts';
import { PROFILE_LINKS, accountSectionLabel, adminLinks } from '../../domain/links.ts';
import Avatar from './Avatar.tsx';
import './account.css';

export interface AccountMenuProps {
  context: 'marketplace' | 'minisite';
  educatorId?: string;
}

export default function AccountMenu({ educatorId }: AccountMenuProps) {
  const identity = useStore($identity);
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const panelId = useId();

  useEffect(() => {
    void loadIdentity().then((id) => (id.authenticated ? flushPendingSave() : null));
  }, []);

  useEffect(() => {
    if (!open) return;
    const onDoc = (event: MouseEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        root.current?.querySelector<HTMLButtonElement>('button')?.focus();
      }
    };
    document.addEventListener('mousedown', onDoc);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDoc);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  if (!identity.ready) return <span className="account-menu" aria-busy="true" />;

  if (!identity.authenticated) {
    return (
      <div className="account-menu" ref={root}>
        <a className="account-menu__login" href={loginHref({ educatorId })} rel="nofollow" data-testid="account-login">Log in or Sign Up</a>
      </div>
    );
  }

  const fullName = [identity.firstName, identity.lastName].filter(Boolean).join(' ');
  const admin = adminOrigin();
  return (
    <div className="account-menu" ref={root}>
      <button
        type="button"
        className="account-menu__button"
        aria-label="My Account"
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((v) => !v)}
      >
        <Avatar url={identity.avatar.url} firstName={identity.firstName} lastName={identity.lastName} email={identity.email} />
        <span>My Account</span>
      </button>
      <div className="account-menu__panel" id={panelId} hidden={!open}>
        <a className="account-menu__who" href="/profile">
          <Avatar url={identity.avatar.url} firstName={identity.firstName} lastName={identity.lastName} email={identity.email} size={40} />
          <span className="account-menu__who-text">
            <strong>{fullName || identity.email}</strong>
            <small>{identity.email}</small>
          </span>
        </a>
        {administersAnyEducator(identity) && (
          <div className="account-menu__section">
            <p className="account-menu__label">Admin Dashboard</p>
            <ul className="account-menu__list">
              {identity.educators.map((educator) => (
                <li key={educator.id}>
                  <a href={adminLinks(admin, educator.id).dashboard} target="_blank" rel="noopener">
                    {educator.logo ? <img src={educator.logo} alt="" width={24} height={24} /> : null}
                    <span>{educator.name}</span>
                  </a>
                </li>
              ))}
            </ul>
          </div>
        )}
        <div className="account-menu__section">
          <p className="account-menu__label">{accountSectionLabel(identity.educators.length)}</p>
          <ul className="account-menu__list">
            {PROFILE_LINKS.map((link) => (
              <li key={link.href}><a href={link.href}>{link.label}</a></li>
            ))}
            <li><a href={logoutHref()} data-testid="account-logout">Log out</a></li>
          </ul>
        </div>
      </div>
    </div>
  );
}
