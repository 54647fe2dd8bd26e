/**
 * The Memberships screen (/memberships): the educator's plans (price per month, per year or a one-off pass, a
 * percentage off and/or credits per period, on every course or chosen ones, listed or not), with their current
 * members. Edits that would take from current members what they hold are refused with the reason; a new price is for
 * new members only (src/domain/admin/memberships.ts).
 *
 * The draft and its body are src/domain/admin/membership-form.ts's; the form is PlanForm, the list PlansList.
 */
import { useState } from 'react';
import PublishStatus from '../PublishStatus.tsx';
import { Notice, ProblemAlert, educatorPath, useAdminData, useDraftEditor, useSave } from '../catalogue/kit.tsx';
import { finishRemoval } from '../editor-rows.tsx';
import { planBody, planDraft, type PlanDraft, type PlanView } from '../../../domain/admin/membership-form.ts';
import PlanForm from './PlanForm.tsx';
import PlansList from './PlansList.tsx';

interface Course { id: string; name: string }

export default function MembershipsEditor({ educatorId }: { educatorId: string }) {
  const { data, problem: loadProblem, reload } = useAdminData<{ plans: PlanView[]; courses: Course[] }>(educatorPath(educatorId, '/membership-plans'));
  const save = useSave();
  const editor = useDraftEditor<PlanDraft>(save);
  const { draft, setDraft, setDirty } = editor;
  const [editing, setEditing] = useState<PlanView | null>(null);
  const open = (plan: PlanView | null) => {
    setEditing(plan);
    editor.open(planDraft(plan));
  };

  async function submit() {
    if (!draft) return;
    const body = planBody(draft);
    const res = draft.id
      ? await save.run<PlanView>('PUT', educatorPath(educatorId, `/membership-plans/${encodeURIComponent(draft.id)}`), { ...body, revision: draft.revision })
      : await save.run<PlanView>('POST', educatorPath(educatorId, '/membership-plans'), body);
    if (res) {
      editor.setNotice(res.notice ? `Saved ${res.name}. ${res.notice}` : `Saved ${res.name}.`);
      setDraft(null);
      setDirty(false);
      await reload();
    }
  }

  const remove = (p: PlanView) =>
    finishRemoval(save.run('DELETE', educatorPath(educatorId, `/membership-plans/${encodeURIComponent(p.id)}?revision=${p.revision}`)), editor, reload, () => `Removed ${p.name}.`);

  if (loadProblem && !data) return <ProblemAlert problem={loadProblem} />;
  if (!data) return <p role="status">Loading membership plans…</p>;
  const courseName = (id: string) => data.courses.find((c) => c.id === id)?.name ?? id;
  return (
    <div data-testid="memberships-editor">
      <p className="cat-muted">Plans learners join for a percentage off and/or credits that each pay for a space.</p>
      <Notice text={editor.notice} />
      <ProblemAlert problem={draft ? null : save.problem} onReload={() => void reload()} />
      <PublishStatus educatorId={educatorId} savedAt={save.savedAt} />
      {draft ? (
        <PlanForm
          draft={draft} editing={editing} courses={data.courses} set={editor.set} errors={save.errors} busy={save.busy} problem={save.problem}
          onSubmit={() => void submit()}
          onCancel={() => { setDraft(null); setDirty(false); save.clear(); }}
          onReload={() => void reload().then(() => setDraft(null))}
        />
      ) : (
        <p><button type="button" className="btn" onClick={() => open(null)}>New plan</button></p>
      )}
      <PlansList plans={data.plans} courseName={courseName} confirming={editor.confirming} setConfirming={editor.setConfirming} onEdit={open} onRemove={(p) => void remove(p)} />
    </div>
  );
}
