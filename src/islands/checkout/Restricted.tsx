/**
 * Spec 2.16 restricted course screen (the checkout answered with the unauthorised problem): a spinner while the
 * login state loads; logged in: "Restricted Course" / "You do not have access to this course."; otherwise
 * "You may need to log in to access this course" with a "Login" link to {host}/login carrying `redirect` and,
 * unless the origin is the marketplace, `educator`.
 */
import { useEffect, useRef } from 'react';
import { useStore } from '@nanostores/react';
import { $bootstrap } from '../../stores/checkout.ts';
import { restrictedCourseScreen } from '../../domain/checkout/messages.ts';
import { $identity } from './identity.ts';
import { LoginLink } from './steps/LoginStep.tsx';
import { Spinner } from './shared.tsx';

export default function Restricted() {
  const bootstrap = useStore($bootstrap)!;
  const identity = useStore($identity);
  const screen = restrictedCourseScreen(identity);
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    headingRef.current?.focus();
  }, [screen.view]);

  if (screen.view === 'loading') return <Spinner label="Checking your login" />;
  if (screen.view === 'no-access') {
    return (
      <section className="restricted panel stack" aria-labelledby="restricted-heading">
        <h1 id="restricted-heading" ref={headingRef} tabIndex={-1}>{screen.title}</h1>
        <p>{screen.text}</p>
      </section>
    );
  }
  return (
    <section className="restricted panel stack" aria-labelledby="restricted-heading">
      <h1 id="restricted-heading" ref={headingRef} tabIndex={-1}>{screen.text}</h1>
      <p>
        <LoginLink educatorId={bootstrap.educator?.id} origin={bootstrap.origin} label={screen.linkText} />
      </p>
    </section>
  );
}
