/**
 * The course editor's state and calls, in three parts: loading the course (or, for a new one, the options its form
 * offers) into a draft; the feedback around the form (field messages, the alert, the status line, the action under
 * way, the time of the last save); and the actions (save, publish / unpublish, duplicate, delete).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { adminFetch, type AdminProblem } from '../api.ts';
import { useUnsavedWarning } from '../useUnsavedWarning.ts';
import { adminPath } from '../../../domain/admin-nav.ts';
import { suggestCourseSlug } from '../../../domain/admin/course.ts';
import { draftFromView, draftToBody, fieldMessages, newCourseDraft, type CourseDraft, type CourseViewLike } from '../../../domain/admin/course-form.ts';
import { correctFieldsText, problemFeedback, type CourseAlert } from '../../../domain/admin/course-editor.ts';

export interface Options { categories: { id: string; name: string }[]; forms: { id: string; name: string }[]; locations: { id: string; name: string }[] }
export interface EditorData {
  course: CourseViewLike;
  minimumSpaces: { spaces: number; start: number } | null;
  dates: { upcoming: number; next: number | null };
  options: Options;
}

/** The course as loaded and its draft; `change` edits the draft (the web address follows the name until edited). */
function useCourseLoad(educatorId: string, initialId: string | null) {
  const [courseId, setCourseId] = useState(initialId);
  const [data, setData] = useState<EditorData | null>(null);
  const [options, setOptions] = useState<Options | null>(null);
  const [draft, setDraft] = useState<CourseDraft>(() => newCourseDraft());
  const [dirty, setDirty] = useState(false);
  const [loadFailed, setLoadFailed] = useState<string | null>(null);
  const e = encodeURIComponent(educatorId);
  useUnsavedWarning(dirty);

  const applyData = useCallback((next: EditorData) => {
    setData(next);
    setOptions(next.options);
    setDraft(draftFromView(next.course));
    setDirty(false);
  }, []);

  const load = useCallback(async () => {
    setLoadFailed(null);
    if (courseId) {
      const res = await adminFetch<EditorData>('GET', `/educators/${e}/courses/${encodeURIComponent(courseId)}`);
      if (res.ok) applyData(res.data);
      else setLoadFailed(res.problem.status === 404 ? 'This course does not exist, or it is not one of this educator\u2019s courses.' : res.problem.detail);
    } else {
      const res = await adminFetch<Options>('GET', `/educators/${e}/course-options`);
      if (res.ok) setOptions(res.data);
      else setLoadFailed(res.problem.detail);
    }
  }, [applyData, courseId, e]);

  useEffect(() => {
    void load();
  }, [load]);

  const change = (patch: Partial<CourseDraft>) => {
    setDraft((d) => {
      const next = { ...d, ...patch };
      if ('name' in patch && !d.slugEdited) next.slug = patch.name ? suggestCourseSlug(patch.name) : '';
      return next;
    });
    setDirty(true);
  };

  return { courseId, setCourseId, data, options, draft, dirty, setDirty, loadFailed, load, applyData, change };
}

/** What the form shows around its fields; the alert takes the focus when it appears. */
function useCourseFeedback() {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [alert, setAlert] = useState<CourseAlert>(null);
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const [savedAt, setSavedAt] = useState<number | null>(null);
  const alertRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (alert) alertRef.current?.focus();
  }, [alert]);

  const showProblem = (problem: AdminProblem, action: string) => {
    const feedback = problemFeedback(problem, action);
    setErrors(feedback.errors);
    setAlert(feedback.alert);
    setStatus('');
  };

  return { errors, setErrors, alert, setAlert, status, setStatus, busy, setBusy, savedAt, setSavedAt, alertRef, showProblem };
}

type Loaded = ReturnType<typeof useCourseLoad>;
type Feedback = ReturnType<typeof useCourseFeedback>;

/** Saves the form: the saved course, or null (the problems are shown). A new course's address becomes its own. */
async function saveCourse(educatorId: string, loaded: Loaded, feedback: Feedback): Promise<EditorData | null> {
  const { courseId, data, draft } = loaded;
  const e = encodeURIComponent(educatorId);
  const { body, problems } = draftToBody(draft);
  if (problems.length) {
    feedback.setErrors(fieldMessages(problems));
    feedback.setAlert({ text: correctFieldsText('saved', problems.length), problems });
    return null;
  }
  feedback.setBusy('save');
  feedback.setStatus('Saving…');
  const res = courseId
    ? await adminFetch<EditorData>('PUT', `/educators/${e}/courses/${encodeURIComponent(courseId)}`, { ...body, revision: data?.course.revision })
    : await adminFetch<EditorData>('POST', `/educators/${e}/courses`, body);
  feedback.setBusy(null);
  if (!res.ok) {
    feedback.showProblem(res.problem, 'saved');
    return null;
  }
  loaded.applyData(res.data);
  feedback.setErrors({});
  feedback.setAlert(null);
  feedback.setStatus(courseId ? 'Saved.' : 'Course created as a draft.');
  feedback.setSavedAt(Date.now());
  if (!courseId) {
    loaded.setCourseId(res.data.course.id);
    window.history.replaceState(null, '', adminPath(`/courses/${res.data.course.id}`, educatorId));
  }
  return res.data;
}

export function useCourseEditor(educatorId: string, initialId: string | null) {
  const loaded = useCourseLoad(educatorId, initialId);
  const feedback = useCourseFeedback();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const { courseId, data, draft, dirty, setDirty, applyData } = loaded;
  const { setBusy, setAlert, setStatus, setSavedAt, showProblem } = feedback;
  const e = encodeURIComponent(educatorId);

  const save = () => saveCourse(educatorId, loaded, feedback);

  const setPublished = async (published: boolean) => {
    let current = data;
    if (dirty || !current) current = await save();
    if (!current) return;
    setBusy('publish');
    const res = await adminFetch<EditorData>('POST', `/educators/${e}/courses/${encodeURIComponent(current.course.id)}/${published ? 'publish' : 'unpublish'}`, { revision: current.course.revision });
    setBusy(null);
    if (!res.ok) return showProblem(res.problem, published ? 'published' : 'unpublished');
    applyData(res.data);
    setAlert(null);
    setStatus(published ? 'Published.' : 'Unpublished: the course\u2019s pages are being taken down.');
    setSavedAt(Date.now());
  };

  const duplicate = async () => {
    if (!courseId) return;
    setBusy('duplicate');
    const res = await adminFetch<{ id: string }>('POST', `/educators/${e}/courses/${encodeURIComponent(courseId)}/duplicate`, {});
    setBusy(null);
    if (!res.ok) return showProblem(res.problem, 'duplicated');
    setDirty(false);
    window.location.assign(adminPath(`/courses/${res.data.id}`, educatorId, { duplicated: '1' }));
  };

  const remove = async () => {
    if (!courseId || !data) return;
    setBusy('delete');
    const res = await adminFetch<{ outcome: string }>('DELETE', `/educators/${e}/courses/${encodeURIComponent(courseId)}?revision=${data.course.revision}`);
    setBusy(null);
    setConfirmDelete(false);
    if (!res.ok) return showProblem(res.problem, 'deleted');
    setDirty(false);
    window.location.assign(adminPath('/courses', educatorId, { deleted: draft.name }));
  };

  return { ...loaded, ...feedback, confirmDelete, setConfirmDelete, save, setPublished, duplicate, remove };
}
