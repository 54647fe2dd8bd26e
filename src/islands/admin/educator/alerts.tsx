/**
 * The alert of the educator's settings forms (profile, payment options, new educator): one problem at a time above
 * the form, focused when it appears so a screen reader reads it; a save refused for an old revision offers to load
 * the latest version. While the form loads, the same place says so (or why it could not load).
 */
import { useRef, useState, type RefObject } from 'react';

export interface FormAlert { text: string; stale?: boolean }

/** The alert, its element's ref, and `showAlert`, which shows one and moves the focus to it once it is rendered. */
export function useAlert<A>() {
  const [alert, setAlert] = useState<A | null>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  const showAlert = (next: A) => {
    setAlert(next);
    setTimeout(() => alertRef.current?.focus(), 0);
  };
  return { alert, setAlert, alertRef, showAlert };
}

/** "Please correct the field marked below." for one field, else with the number of fields. */
export function correctFieldsMessage(count: number): string {
  return `Please correct the ${count === 1 ? 'field' : `${count} fields`} marked below.`;
}

/** Where the alert shows above a form; a stale save's alert has the button that loads the latest version. */
export function AlertSlot({ alertRef, alert, onReload }: { alertRef: RefObject<HTMLDivElement | null>; alert: FormAlert | null; onReload(): void }) {
  return (
    <div ref={alertRef} tabIndex={-1} className="edu-alert-slot">
      {alert && (
        <div className="admin-status" data-kind="error" role="alert">
          <p>{alert.text}</p>
          {alert.stale && <p><button type="button" className="btn btn--secondary btn--small" onClick={onReload}>Load the latest version (your unsaved changes are discarded)</button></p>}
        </div>
      )}
    </div>
  );
}

/** What shows before the form has loaded: `loading`, or the problem that stopped it loading. */
export function LoadingOrAlert({ alertRef, alert, loading }: { alertRef: RefObject<HTMLDivElement | null>; alert: FormAlert | null; loading: string }) {
  return (
    <div ref={alertRef} tabIndex={-1}>
      {alert ? <p className="admin-status" data-kind="error" role="alert">{alert.text}</p> : <p role="status">{loading}</p>}
    </div>
  );
}
