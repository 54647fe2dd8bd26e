/**
 * Spec 2.14 / 8: the error banner shows the title, or "title: detail"; a validation error lists its properties
 * as "{field label}: {message}", each linking to its field. The banner takes focus and is scrolled into view.
 */
import { useEffect, useRef } from 'react';
import { useStore } from '@nanostores/react';
import { $error } from '../../stores/checkout.ts';
import { bannerItems, fieldDomId } from '../../domain/checkout/ui.ts';

function focusField(key: string): boolean {
  // The key, or its closest parent that has a control (payload.selectedOffers.0.quantity → payload.selectedOffers).
  const parts = key.split('.');
  for (let n = parts.length; n > 0; n--) {
    const el = document.getElementById(fieldDomId(parts.slice(0, n).join('.')));
    if (el) {
      const target = el.matches('fieldset') ? el.querySelector<HTMLElement>('input, select, textarea, button') ?? el : el;
      target.scrollIntoView({ block: 'center' });
      target.focus();
      return true;
    }
  }
  return false;
}

export default function ErrorBanner() {
  const error = useStore($error);
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!error || !ref.current) return;
    ref.current.focus();
    ref.current.scrollIntoView({ block: 'center', behavior: 'smooth' });
  }, [error]);

  if (!error) return null;
  const { heading, items } = bannerItems(error);
  return (
    <div ref={ref} className="alert alert--danger checkout-error" role="alert" tabIndex={-1}>
      <p className="checkout-error__title">{heading}</p>
      {items.length > 0 && (
        <ul className="checkout-error__list">
          {items.map((item) => (
            <li key={`${item.key}-${item.text}`}>
              {item.key ? (
                <a
                  href={`#${fieldDomId(item.key)}`}
                  onClick={(e) => {
                    if (focusField(item.key!)) e.preventDefault();
                  }}
                >
                  {item.text}
                </a>
              ) : (
                item.text
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
