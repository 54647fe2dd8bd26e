/**
 * Spec 2.14 "Contact Info": the Terms dialog — the educator's own terms, the platform terms (spec 1 figures),
 * a Dispute Resolution section and "I agree". A native modal <dialog>: the page behind is inert (focus stays
 * inside), Escape closes it, and focus returns to what opened it.
 */
import { forwardRef, useId, useImperativeHandle, useRef, type KeyboardEvent } from 'react';
import { disputeResolution, platformTerms } from '../../../domain/checkout/ui.ts';

export interface TermsDialogHandle {
  open(opener?: HTMLElement | null): void;
}

/** Keeps Tab inside the dialog (it would otherwise reach the browser's own controls): from the last control to the first and back. */
function keepTabInside(e: KeyboardEvent<HTMLDialogElement>, dialog: HTMLDialogElement | null) {
  if (e.key !== 'Tab' || !dialog) return;
  const focusable = Array.from(dialog.querySelectorAll<HTMLElement>('a[href], button:not([disabled]), [tabindex="0"], input, select, textarea'))
    .filter((el) => el.offsetParent !== null || el === document.activeElement);
  if (focusable.length === 0) return;
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (!e.shiftKey && document.activeElement === last) {
    e.preventDefault();
    first.focus();
  } else if (e.shiftKey && document.activeElement === first) {
    e.preventDefault();
    last.focus();
  }
}

/** The terms themselves: the educator's, the platform's and the dispute resolution. */
function TermsText({ educatorName, educatorTerms, productName }: { educatorName: string; educatorTerms: string; productName: string }) {
  const platform = platformTerms(productName);
  const dispute = disputeResolution(productName);
  return (
    <div className="terms-dialog__body" tabIndex={0} aria-label="Terms text">
      <section className="stack">
        <h3>{educatorName} terms</h3>
        {educatorTerms ? (
          <div className="rich-text" dangerouslySetInnerHTML={{ __html: educatorTerms }} />
        ) : (
          <p className="muted">{educatorName} has not added their own terms.</p>
        )}
      </section>
      <section className="stack">
        <h3>{platform.heading}</h3>
        {platform.paragraphs.map((p) => <p key={p}>{p}</p>)}
        <p>
          See <a href="/pricing" target="_blank" rel="noopener">pricing</a> and our <a href="/privacy" target="_blank" rel="noopener">Privacy Policy</a>.
        </p>
      </section>
      <section className="stack">
        <h3>{dispute.heading}</h3>
        {dispute.paragraphs.map((p) => <p key={p}>{p}</p>)}
      </section>
    </div>
  );
}

export const TermsDialog = forwardRef<TermsDialogHandle, { educatorName: string; educatorTerms: string; productName: string; onAgree: () => void }>(
  function TermsDialog({ educatorName, educatorTerms, productName, onAgree }, ref) {
    const dialogRef = useRef<HTMLDialogElement>(null);
    const openerRef = useRef<HTMLElement | null>(null);
    const titleId = useId();

    useImperativeHandle(ref, () => ({
      open(opener) {
        openerRef.current = opener ?? (document.activeElement as HTMLElement | null);
        const dialog = dialogRef.current;
        if (dialog && !dialog.open) dialog.showModal();
      },
    }));

    function close() {
      dialogRef.current?.close();
    }

    return (
      <dialog
        ref={dialogRef}
        className="terms-dialog"
        aria-labelledby={titleId}
        onClose={() => openerRef.current?.focus()}
        onKeyDown={(e) => keepTabInside(e, dialogRef.current)}
        onClick={(e) => {
          // A click on the backdrop (outside the box) closes it.
          if (e.target === dialogRef.current) close();
        }}
      >
        <div className="terms-dialog__box">
          <div className="terms-dialog__head">
            <h2 id={titleId}>Terms</h2>
            <button type="button" className="btn btn--ghost btn--small" aria-label="Close" onClick={close}>✕</button>
          </div>
          <TermsText educatorName={educatorName} educatorTerms={educatorTerms} productName={productName} />
          <div className="terms-dialog__foot">
            <button
              type="button"
              className="btn"
              onClick={() => {
                onAgree();
                close();
              }}
            >
              I agree
            </button>
          </div>
        </div>
      </dialog>
    );
  },
);
