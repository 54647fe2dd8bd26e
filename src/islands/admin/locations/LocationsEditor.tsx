/**
 * The Locations screen (/locations): the places learners can travel to ("In-person • I will travel to {educator}"),
 * each with the courses that offer it; add, edit, remove (refused while a course offers it or a booking shows it).
 */
import { ProblemAlert, TextField, educatorPath, useAdminData, useDraftEditor, useSave, type FieldErrors } from '../catalogue/kit.tsx';
import { ItemActions, ListScreenStatus, SaveOrCancel, useListItemSaving } from '../collections/listEditing.tsx';

interface LocationView { id: string; name: string | null; line1: string; line2: string | null; city: string; postcode: string | null; lat: number | null; lng: number | null; formatted: string; revision: number; usedBy: { id: string; name: string }[] }
interface Draft { id: string | null; revision: number; name: string; line1: string; line2: string; city: string; postcode: string; lat: string; lng: string }

const EMPTY: Draft = { id: null, revision: 0, name: '', line1: '', line2: '', city: '', postcode: '', lat: '', lng: '' };
const coordinate = (v: string): number | string | null => (v.trim() === '' ? null : Number.isFinite(Number(v)) ? Number(v) : v);

const draftOf = (l: LocationView): Draft => ({
  id: l.id, revision: l.revision, name: l.name ?? '', line1: l.line1, line2: l.line2 ?? '', city: l.city, postcode: l.postcode ?? '', lat: l.lat === null ? '' : String(l.lat), lng: l.lng === null ? '' : String(l.lng),
});

export default function LocationsEditor({ educatorId }: { educatorId: string }) {
  const { data, problem: loadProblem, reload } = useAdminData<{ locations: LocationView[] }>(educatorPath(educatorId, '/locations'));
  const save = useSave();
  const editor = useDraftEditor<Draft>(save);
  const { draft, setDraft, notice, confirming, setConfirming, set, open } = editor;
  const items = useListItemSaving({ educatorId, path: '/locations', save, editor, reload });

  async function submit() {
    if (!draft) return;
    const body = { name: draft.name, line1: draft.line1, line2: draft.line2, city: draft.city, postcode: draft.postcode, lat: coordinate(draft.lat), lng: coordinate(draft.lng) };
    await items.saveDraft<LocationView>(draft, body, (res) => `Saved ${res.name ?? res.line1}.`);
  }

  if (loadProblem && !data) return <ProblemAlert problem={loadProblem} />;
  if (!data) return <p role="status">Loading locations…</p>;
  return (
    <div data-testid="locations-editor">
      <p className="cat-muted">Places learners can come to. A course offers them under its delivery settings.</p>
      <ListScreenStatus educatorId={educatorId} notice={notice} save={save} editing={!!draft} onReload={() => void reload()} />
      {draft ? (
        <section className="cat-panel" aria-labelledby="location-heading">
          <h2 id="location-heading">{draft.id ? 'Edit location' : 'New location'}</h2>
          <ProblemAlert problem={save.problem} onReload={() => void reload().then(() => setDraft(null))} />
          <form noValidate onSubmit={(e) => { e.preventDefault(); void submit(); }}>
            <LocationFields draft={draft} set={set} errors={save.errors} />
            <SaveOrCancel busy={save.busy} label="Save location" onCancel={items.cancel} />
          </form>
        </section>
      ) : (
        <p><button type="button" className="btn" onClick={() => open(EMPTY)}>New location</button></p>
      )}
      <section aria-labelledby="locations-heading">
        <h2 id="locations-heading">Your locations</h2>
        {data.locations.length === 0 ? <p className="admin-empty">No locations yet.</p> : (
          <ul className="cat-list">
            {data.locations.map((l) => {
              const title = l.name ?? `${l.line1}, ${l.city}`;
              return (
                <li key={l.id}>
                  <h3>{title}</h3>
                  <p className="cat-muted">{l.formatted.split('\n').join(', ')} · {l.usedBy.length ? `Offered by ${l.usedBy.map((c) => c.name).join(', ')}` : 'Not offered by a course'}</p>
                  <ItemActions title={title} confirming={confirming === l.id} onEdit={() => open(draftOf(l))} onAskRemove={() => setConfirming(l.id)}
                    onRemove={() => void items.removeItem(l, `Removed ${l.name ?? l.line1}.`)} onKeep={() => setConfirming(null)} />
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </div>
  );
}

/** The fields of a location's edit form. */
function LocationFields({ draft, set, errors }: { draft: Draft; set(patch: Partial<Draft>): void; errors: FieldErrors }) {
  return (
    <div className="cat-grid">
      <TextField label="Name (optional)" name="name" value={draft.name} onChange={(v) => set({ name: v })} errors={errors} hint="e.g. The Studio" />
      <TextField label="Address line 1" name="line1" value={draft.line1} onChange={(v) => set({ line1: v })} errors={errors} autoComplete="address-line1" />
      <TextField label="Address line 2" name="line2" value={draft.line2} onChange={(v) => set({ line2: v })} errors={errors} autoComplete="address-line2" />
      <TextField label="Town or city" name="city" value={draft.city} onChange={(v) => set({ city: v })} errors={errors} autoComplete="address-level2" />
      <TextField label="Postcode" name="postcode" value={draft.postcode} onChange={(v) => set({ postcode: v })} errors={errors} autoComplete="postal-code" />
      <TextField label="Latitude (optional)" name="lat" inputMode="decimal" value={draft.lat} onChange={(v) => set({ lat: v })} errors={errors} />
      <TextField label="Longitude (optional)" name="lng" inputMode="decimal" value={draft.lng} onChange={(v) => set({ lng: v })} errors={errors} />
    </div>
  );
}
