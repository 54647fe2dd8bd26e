/**
 * Spec 2.12: "Log in to save this course". A modal <dialog>: clicking the backdrop does not close it
 * (only Cancel or Escape do). "Log in or Sign Up" goes to the main site's login (a first-party window in an embed).
 */
import { useEffect, useRef } from 'react';

export default function LoginModal({ open, courseName, onLogin, onClose }: {
  open: boolean;
  courseName?: string | null;
  onLogin: () => void;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog
      ref={dialog}
      className="modal login-modal"
      aria-labelledby="login-modal-title"
      onClose={onClose}
      data-testid="save-login-modal"
    >
      <div className="modal__head">
        <h2 id="login-modal-title">Log in to save this course</h2>
      </div>
      <div className="modal__body">
        <p>{courseName ? `Log in or create a free account to save ${courseName} and find it later under Saved.` : 'Log in or create a free account to save courses and find them later under Saved.'}</p>
        <div className="login-modal__actions">
          <button type="button" className="btn" onClick={onLogin}>Log in or Sign Up</button>
          <button type="button" className="btn btn--secondary" onClick={onClose}>Cancel</button>
        </div>
      </div>
    </dialog>
  );
}
