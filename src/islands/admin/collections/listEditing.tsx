/**
 * What the educator's list screens (collections, forms, locations, promo codes) share around catalogue/kit.tsx's
 * useDraftEditor: saving the open draft (PUT with its revision, or POST when new) and removing an item (DELETE with
 * its revision), each followed by the notice and a reload; the notice/problem/publish lines above the screen; the
 * Save and Cancel buttons of the edit form; an item's Edit / Remove buttons with the removal's confirmation; and the
 * Up / Down buttons of an ordered list. One home, so the four screens read and behave alike.
 */
import type { ReactNode } from 'react';
import PublishStatus from '../PublishStatus.tsx';
import { Notice, ProblemAlert, educatorPath, type useSave } from '../catalogue/kit.tsx';

type Save = ReturnType<typeof useSave>;
/** The parts of useDraftEditor's state a save or removal changes. */
interface Editor { setDraft(draft: null): void; setDirty(dirty: boolean): void; setNotice(notice: string | null): void; setConfirming(id: string | null): void }

/** `list` with the item at `index` moved `by` places (-1: up, 1: down). */
export function moveItem<T>(list: readonly T[], index: number, by: number): T[] {
  const next = [...list];
  const [item] = next.splice(index, 1);
  next.splice(index + by, 0, item!);
  return next;
}

/**
 * Saving and removing the items under `path` (e.g. '/locations') of one educator. A successful save closes the
 * draft and reloads the list; a removal always ends the confirmation, and reloads when it succeeded.
 */
export function useListItemSaving({ educatorId, path, save, editor, reload }: { educatorId: string; path: string; save: Save; editor: Editor; reload(): Promise<unknown> }) {
  const itemPath = (id: string) => educatorPath(educatorId, `${path}/${encodeURIComponent(id)}`);
  async function saveDraft<V>(draft: { id: string | null; revision: number }, body: object, noticeOf: (saved: V) => string) {
    const res = draft.id
      ? await save.run<V>('PUT', itemPath(draft.id), { ...body, revision: draft.revision })
      : await save.run<V>('POST', educatorPath(educatorId, path), body);
    if (res) {
      editor.setNotice(noticeOf(res));
      editor.setDraft(null);
      editor.setDirty(false);
      await reload();
    }
  }
  async function removeItem(item: { id: string; revision: number }, notice: string) {
    const res = await save.run('DELETE', `${itemPath(item.id)}?revision=${item.revision}`);
    editor.setConfirming(null);
    if (res) {
      editor.setNotice(notice);
      await reload();
    }
  }
  /** Closes the edit form without saving. */
  const cancel = () => {
    editor.setDraft(null);
    editor.setDirty(false);
    save.clear();
  };
  return { saveDraft, removeItem, cancel };
}

/** The lines above a list screen: the last notice, a problem (of a removal: the edit form shows its own) and the publish status. */
export function ListScreenStatus({ educatorId, notice, save, editing, onReload }: { educatorId: string; notice: string | null; save: Save; editing: boolean; onReload(): void }) {
  return (
    <>
      <Notice text={notice} />
      <ProblemAlert problem={editing ? null : save.problem} onReload={onReload} />
      <PublishStatus educatorId={educatorId} savedAt={save.savedAt} />
    </>
  );
}

/** The Save and Cancel buttons of an edit form. */
export function SaveOrCancel({ busy, label, onCancel }: { busy: boolean; label: string; onCancel(): void }) {
  return (
    <div className="cat-actions">
      <button type="submit" className="btn" disabled={busy}>{busy ? 'Saving…' : label}</button>
      <button type="button" className="btn btn--secondary" onClick={onCancel}>Cancel</button>
    </div>
  );
}

/** An item's Edit and Remove buttons, or, once Remove is pressed, the question whether to remove it. */
export function ItemActions({ title, confirming, onEdit, onAskRemove, onRemove, onKeep }: {
  title: string; confirming: boolean; onEdit(): void; onAskRemove(): void; onRemove(): void; onKeep(): void;
}) {
  if (confirming) {
    return (
      <div className="cat-actions" role="group" aria-label={`Remove ${title}?`}>
        <span>Remove {title}?</span>
        <button type="button" className="btn btn--small" onClick={onRemove}>Remove</button>
        <button type="button" className="btn btn--secondary btn--small" onClick={onKeep}>Keep it</button>
      </div>
    );
  }
  return (
    <div className="cat-actions">
      <button type="button" className="btn btn--secondary btn--small" aria-label={`Edit ${title}`} onClick={onEdit}>Edit</button>
      <button type="button" className="btn btn--secondary btn--small" aria-label={`Remove ${title}`} onClick={onAskRemove}>Remove</button>
    </div>
  );
}

/** The Up and Down buttons of the item at `index` of `count` (`what` names it: "Move {what} up"), then `children`. */
export function MoveButtons({ index, count, what, onMove, children }: { index: number; count: number; what: string; onMove(by: number): void; children?: ReactNode }) {
  return (
    <div className="cat-actions">
      <button type="button" className="btn btn--secondary btn--small" disabled={index === 0} onClick={() => onMove(-1)} aria-label={`Move ${what} up`}>Up</button>
      <button type="button" className="btn btn--secondary btn--small" disabled={index === count - 1} onClick={() => onMove(1)} aria-label={`Move ${what} down`}>Down</button>
      {children}
    </div>
  );
}
