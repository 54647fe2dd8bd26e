/**
 * The Collections screen (/collections): named groups of the educator's courses, in the order chosen (Up / Down),
 * with an optional image and published or not (spec 3 "Collection").
 */
import { CheckboxField, ProblemAlert, SelectField, TextField, educatorPath, useAdminData, useDraftEditor, useSave, type FieldErrors } from '../catalogue/kit.tsx';
import { ItemActions, ListScreenStatus, MoveButtons, SaveOrCancel, moveItem, useListItemSaving } from './listEditing.tsx';

interface CollectionView { id: string; name: string; imageUrl: string | null; published: boolean; revision: number; courseIds: string[] }
interface Course { id: string; name: string; published: boolean }
interface Draft { id: string | null; revision: number; name: string; imageUrl: string; published: boolean; courseIds: string[]; adding: string }

const EMPTY: Draft = { id: null, revision: 0, name: '', imageUrl: '', published: true, courseIds: [], adding: '' };

const draftOf = (c: CollectionView): Draft => ({ id: c.id, revision: c.revision, name: c.name, imageUrl: c.imageUrl ?? '', published: c.published, courseIds: c.courseIds, adding: '' });

export default function CollectionsEditor({ educatorId }: { educatorId: string }) {
  const { data, problem: loadProblem, reload } = useAdminData<{ collections: CollectionView[]; courses: Course[] }>(educatorPath(educatorId, '/collections'));
  const save = useSave();
  const editor = useDraftEditor<Draft>(save);
  const { draft, setDraft, notice, confirming, setConfirming, set, open } = editor;
  const items = useListItemSaving({ educatorId, path: '/collections', save, editor, reload });

  async function submit() {
    if (!draft) return;
    const body = { name: draft.name, imageUrl: draft.imageUrl, published: draft.published, courseIds: draft.courseIds };
    await items.saveDraft<CollectionView>(draft, body, (res) => `Saved ${res.name}.`);
  }

  if (loadProblem && !data) return <ProblemAlert problem={loadProblem} />;
  if (!data) return <p role="status">Loading collections…</p>;
  const name = (id: string) => data.courses.find((c) => c.id === id)?.name ?? id;
  return (
    <div data-testid="collections-editor">
      <p className="cat-muted">Groups of your courses, shown together on your pages in the order you choose.</p>
      <ListScreenStatus educatorId={educatorId} notice={notice} save={save} editing={!!draft} onReload={() => void reload()} />
      {draft ? (
        <section className="cat-panel" aria-labelledby="collection-heading">
          <h2 id="collection-heading">{draft.id ? `Edit ${draft.name || 'collection'}` : 'New collection'}</h2>
          <ProblemAlert problem={save.problem} onReload={() => void reload().then(() => setDraft(null))} />
          <form noValidate onSubmit={(e) => { e.preventDefault(); void submit(); }}>
            <div className="cat-grid">
              <TextField label="Name" name="name" value={draft.name} onChange={(v) => set({ name: v })} errors={save.errors} />
              <TextField label="Image address (optional)" name="imageUrl" type="url" value={draft.imageUrl} onChange={(v) => set({ imageUrl: v })} errors={save.errors} hint="Without one, your pages show a colour gradient." />
            </div>
            <CheckboxField label="Published" name="published" checked={draft.published} onChange={(v) => set({ published: v })} errors={save.errors} hint="Shown on your pages." />
            <CollectionCourses draft={draft} set={set} errors={save.errors} courses={data.courses} name={name} />
            <SaveOrCancel busy={save.busy} label="Save collection" onCancel={items.cancel} />
          </form>
        </section>
      ) : (
        <p><button type="button" className="btn" onClick={() => open(EMPTY)}>New collection</button></p>
      )}
      <section aria-labelledby="collections-heading">
        <h2 id="collections-heading">Your collections</h2>
        {data.collections.length === 0 ? <p className="admin-empty">No collections yet.</p> : (
          <ul className="cat-list">
            {data.collections.map((c) => (
              <li key={c.id}>
                <div className="cat-row-head">
                  <h3>{c.name}</h3>
                  {!c.published && <span className="cat-badge" data-kind="warn">Not published</span>}
                </div>
                <p className="cat-muted">{c.courseIds.length ? c.courseIds.map(name).join(' · ') : 'No courses'}</p>
                <ItemActions title={c.name} confirming={confirming === c.id} onEdit={() => open(draftOf(c))} onAskRemove={() => setConfirming(c.id)}
                  onRemove={() => void items.removeItem(c, `Removed ${c.name}.`)} onKeep={() => setConfirming(null)} />
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

/** The collection's courses in order (Up, Down, Take out) and the choice of a course to add. */
function CollectionCourses({ draft, set, errors, courses, name }: { draft: Draft; set(patch: Partial<Draft>): void; errors: FieldErrors; courses: Course[]; name(id: string): string }) {
  const others = courses.filter((c) => !draft.courseIds.includes(c.id));
  return (
    <fieldset className="cat-fieldset">
      <legend>Courses, in order</legend>
      {errors.courseIds && <p className="field-error">{errors.courseIds}</p>}
      {draft.courseIds.length === 0 ? <p className="cat-muted">No courses yet.</p> : (
        <ol className="cat-list">
          {draft.courseIds.map((id, i) => (
            <li key={id}>
              <span>{name(id)}</span>
              {errors[`courseIds.${i}`] && <p className="field-error">{errors[`courseIds.${i}`]}</p>}
              <MoveButtons index={i} count={draft.courseIds.length} what={name(id)} onMove={(by) => set({ courseIds: moveItem(draft.courseIds, i, by) })}>
                <button type="button" className="btn btn--ghost btn--small" onClick={() => set({ courseIds: draft.courseIds.filter((x) => x !== id) })} aria-label={`Take ${name(id)} out`}>Take out</button>
              </MoveButtons>
            </li>
          ))}
        </ol>
      )}
      {others.length > 0 && (
        <div className="cat-actions">
          <SelectField label="Add a course" name="adding" value={draft.adding} onChange={(v) => set({ adding: v })}
            options={[{ value: '', label: 'Choose a course…' }, ...others.map((c) => ({ value: c.id, label: c.published ? c.name : `${c.name} (not published)` }))]} />
          <button type="button" className="btn btn--secondary btn--small" disabled={!draft.adding} onClick={() => set({ courseIds: [...draft.courseIds, draft.adding], adding: '' })}>Add</button>
        </div>
      )}
    </fieldset>
  );
}
