/** Spec 2.7: the avatar, or coloured initials (spec 9: a 30-colour palette indexed by the first letters). */
import { initials, initialsColour } from '../../domain/avatars.ts';

export default function Avatar({ url, firstName, lastName, email, size = 32 }: {
  url: string | null;
  firstName: string | null;
  lastName: string | null;
  email?: string | null;
  size?: number;
}) {
  const first = firstName || (!lastName ? email ?? '' : '');
  const letters = initials(first, lastName) || '?';
  const style = { width: size, height: size, fontSize: Math.round(size * 0.4), background: url ? '#eef2f6' : initialsColour(first, lastName) };
  return (
    <span className="avatar" style={style} aria-hidden="true" data-initials={url ? undefined : letters}>
      {url ? <img src={url} alt="" width={size} height={size} /> : letters}
    </span>
  );
}
