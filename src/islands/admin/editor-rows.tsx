/**
 * What the list screens' rows share (memberships, dates): a row's Edit and Remove buttons, the question a Remove
 * asks before anything is removed, and what follows a removal (the question closes; on success a notice and the
 * list loaded again). The edit form's own state is the catalogue kit's useDraftEditor.
 */
import type { ReactNode } from 'react';

/** Edit and Remove; Remove only asks (onAsk), the question below does the removing. */
export function EditRemoveButtons({ editText = 'Edit', removeText = 'Remove', editLabel, removeLabel, onEdit, onAsk }: {
  editText?: string; removeText?: string; editLabel?: string; removeLabel?: string; onEdit: () => void; onAsk: () => void;
}) {
  return (
    <div className="cat-actions">
      <button type="button" className="btn btn--secondary btn--small" aria-label={editLabel} onClick={onEdit}>{editText}</button>
      <button type="button" className="btn btn--secondary btn--small" aria-label={removeLabel} onClick={onAsk}>{removeText}</button>
    </div>
  );
}

/** The question after Remove (`children`), named by `label` for assistive technology: Remove, or keep it. */
export function ConfirmRemove({ label, keepText = 'Keep it', onRemove, onKeep, children }: {
  label: string; keepText?: string; onRemove: () => void; onKeep: () => void; children: ReactNode;
}) {
  return (
    <div className="cat-actions" role="group" aria-label={label}>
      <span>{children}</span>
      <button type="button" className="btn btn--small" onClick={onRemove}>Remove</button>
      <button type="button" className="btn btn--secondary btn--small" onClick={onKeep}>{keepText}</button>
    </div>
  );
}

/**
 * Ends a removal whose call `removal` is under way: closes the question, then, if it succeeded, says what went
 * (`notice` of the answer) and loads the list again.
 */
export async function finishRemoval<T>(
  removal: Promise<T | null>,
  editor: { setConfirming(id: string | null): void; setNotice(text: string | null): void },
  reload: () => Promise<unknown>,
  notice: (res: T) => string,
): Promise<void> {
  const res = await removal;
  editor.setConfirming(null);
  if (res) {
    editor.setNotice(notice(res));
    await reload();
  }
}
