/**
 * The state and calls of the Dates screen: the course's dates as loaded, the form's mode and draft (the catalogue
 * kit's useDraftEditor), the weekly series' preview, and adding, saving and removing dates and series. A success
 * closes the form, says what was done and loads the dates again.
 */
import { useMemo, useState } from 'react';
import { educatorPath, useAdminData, useDraftEditor, useSave } from '../catalogue/kit.tsx';
import { finishRemoval } from '../editor-rows.tsx';
import {
  addedNotice, dateUpdateBody, draftForMode, newDatesBody, seriesUpdateBody, upcomingRevisions, weeklyPreview,
  type DateDraft, type DateView, type DatesData, type DatesMode,
} from '../../../domain/admin/date-drafts.ts';
import type { SeriesSummary } from '../../../domain/admin/dates.ts';

export function useDatesEditor(educatorId: string, courseId: string) {
  const base = educatorPath(educatorId, `/courses/${encodeURIComponent(courseId)}`);
  const { data, problem: loadProblem, reload } = useAdminData<DatesData>(`${base}/dates`);
  const save = useSave();
  const editor = useDraftEditor<DateDraft>(save);
  const [mode, setMode] = useState<DatesMode | null>(null);
  const { draft } = editor;

  const preview = useMemo(() => (mode?.kind === 'new' && draft?.repeat === 'weekly' ? weeklyPreview(draft) : null), [mode, draft]);

  function open(next: DatesMode) {
    editor.setConfirming(null);
    setMode(next);
    editor.open(draftForMode(next));
  }

  function close() {
    setMode(null);
    editor.setDirty(false);
    save.clear();
  }

  /** Sends the form of `m`: whether it was saved (the notice set), or not (the problem shown). */
  async function send(m: DatesMode, d: DateDraft): Promise<boolean> {
    if (m.kind === 'new') {
      const res = await save.run<{ dates: DateView[] }>('POST', `${base}/dates`, newDatesBody(d));
      if (res) editor.setNotice(addedNotice(res.dates));
      return !!res;
    }
    if (m.kind === 'edit') {
      const res = await save.run<DateView>('PUT', `${base}/dates/${encodeURIComponent(m.date.id)}`, dateUpdateBody(m.date, d));
      if (res) editor.setNotice(`Saved ${res.label}.`);
      return !!res;
    }
    const res = await save.run<{ dates: DateView[] }>('PUT', `${base}/series/${encodeURIComponent(m.series.id)}`, seriesUpdateBody(m.dates, d));
    if (res) editor.setNotice(`Saved ${res.dates.length} dates of the series.`);
    return !!res;
  }

  async function submit() {
    if (!mode || !draft) return;
    if (await send(mode, draft)) {
      setMode(null);
      editor.setDirty(false);
      await reload();
    }
  }

  const removeDate = (d: DateView) =>
    finishRemoval(save.run('DELETE', `${base}/dates/${encodeURIComponent(d.id)}?revision=${d.revision}`), editor, reload, () => `Removed ${d.label}.`);

  const removeSeries = (s: SeriesSummary, dates: DateView[]) =>
    finishRemoval(
      save.run<{ removed: string[] }>('POST', `${base}/series/${encodeURIComponent(s.id)}/remove`, { revisions: upcomingRevisions(dates) }),
      editor, reload, (res) => `Removed ${res.removed.length} dates of the series.`,
    );

  return { data, loadProblem, reload, save, editor, mode, preview, open, close, submit, removeDate, removeSeries };
}
