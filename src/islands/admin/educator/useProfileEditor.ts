/**
 * The state of the profile form (ProfileForm.tsx): the profile as loaded, the draft, the server's message per field
 * and which fields were edited since, the alert, the save status; loading, editing, discarding and saving (PATCH with
 * the revision and only what changed; a 409 says the profile was changed meanwhile and offers the latest version).
 */
import { useEffect, useMemo, useState, type SubmitEvent } from 'react';
import { adminFetch } from '../api.ts';
import { useUnsavedWarning } from '../useUnsavedWarning.ts';
import { correctFieldsMessage, useAlert, type FormAlert } from './alerts.tsx';
import { changedValues, draftOf, problemsToSend, valuesOf, type Draft, type Profile } from './profileDraft.ts';

/** Changes the draft; `keys` are the fields (as the server keys them) whose message now follows what is typed. */
export type Update = (patch: Partial<Draft>, ...keys: string[]) => void;

export function useProfileEditor(educatorId: string) {
  const [profile, setProfile] = useState<Profile | null>(null);
  const [loaded, setLoaded] = useState<Draft | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [serverFields, setServerFields] = useState<Record<string, string>>({});
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const [savedAt, setSavedAt] = useState<number | null>(null);
  const { alert, setAlert, alertRef, showAlert } = useAlert<FormAlert>();

  /** Starts again from `p` as saved, with no field messages. */
  const accept = (p: Profile) => {
    const d = draftOf(p);
    setProfile(p);
    setLoaded(d);
    setDraft(d);
    setServerFields({});
    setTouched(new Set());
  };
  /** Shows these field messages (each until its field is edited) and the alert above them. */
  const refuse = (fields: Record<string, string>, next: FormAlert) => {
    setServerFields(fields);
    setTouched(new Set());
    showAlert(next);
  };

  async function load() {
    const res = await adminFetch<{ profile: Profile }>('GET', `/educators/${encodeURIComponent(educatorId)}/profile`);
    if (!res.ok) return setAlert({ text: res.problem.detail });
    accept(res.data.profile);
    setAlert(null);
  }
  useEffect(() => {
    void load();
    // Loaded once per educator.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [educatorId]);

  const changes = useMemo(() => (draft && loaded ? changedValues(draft, loaded) : {}), [draft, loaded]);
  const dirty = Object.keys(changes).length > 0;
  useUnsavedWarning(dirty);
  const local = useMemo(() => (draft ? valuesOf(draft).problems : {}), [draft]);

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!draft || !profile || busy) return;
    if (!dirty) return setStatus('Nothing has changed since the last save.');
    const problems = problemsToSend(valuesOf(draft).problems, changes);
    const count = Object.keys(problems).length;
    if (count) return refuse(problems, { text: correctFieldsMessage(count) });
    setBusy(true);
    setAlert(null);
    setStatus('Saving…');
    const res = await adminFetch<{ revision: number; profile: Profile }>('PATCH', `/educators/${encodeURIComponent(educatorId)}/profile`, { revision: profile.revision, ...changes });
    setBusy(false);
    if (res.ok) {
      accept(res.data.profile);
      setStatus('Your changes are saved.');
      setSavedAt(Date.now());
      return;
    }
    setStatus('');
    const refused = Object.keys(res.problem.fields).length;
    refuse(res.problem.fields, res.problem.status === 409
      ? { text: res.problem.detail, stale: true }
      : { text: refused ? correctFieldsMessage(refused) : res.problem.detail });
  }

  /** A field's message: the server's until the field is edited again, then what the browser sees (once touched). */
  const err = (key: string): string | null => {
    if (serverFields[key] && !touched.has(key)) return serverFields[key]!;
    return touched.has(key) || Object.keys(serverFields).length ? local[key] ?? null : null;
  };
  const update: Update = (patch, ...keys) => {
    if (!draft) return;
    setDraft({ ...draft, ...patch });
    if (keys.length) setTouched(new Set([...touched, ...keys]));
    setStatus('');
  };
  const discard = () => {
    setDraft(loaded);
    setServerFields({});
    setTouched(new Set());
    setAlert(null);
    setStatus('Your changes are discarded.');
  };

  return { profile, loaded, draft, serverFields, local, alert, alertRef, status, busy, savedAt, dirty, load, submit, err, update, discard };
}
