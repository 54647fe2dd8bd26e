/**
 * Profile & branding (/profile): every field of the educator (spec 3 "Educator"), saved together with one revision
 * (PATCH /api/admin/educators/{id}/profile sends only what changed). The server's message for each field is shown
 * beside it; a save made on an old revision is refused (409) and says who changed what. Rules the browser can
 * judge (the address, the colours' contrast, the analytics ids, the opening times) are shown as the educator types.
 * Leaving with unsaved changes asks first; after a save the publish status says when the pages are live.
 * The draft's rules: profileDraft.ts; its state and saving: useProfileEditor.ts; the sections: ProfileSections.tsx.
 */
import PublishStatus from '../PublishStatus.tsx';
import OpeningHours from './OpeningHours.tsx';
import { AlertSlot, LoadingOrAlert } from './alerts.tsx';
import { AboutSection, AnalyticsSection, BrandingSection, ContactSection, FlagsSection, IdentitySection, TermsSection, VatSection } from './ProfileSections.tsx';
import { useProfileEditor } from './useProfileEditor.ts';
import './educator.css';

interface Props {
  educatorId: string;
  host: string;
  protocol: string;
}

export default function ProfileForm({ educatorId, host, protocol }: Props) {
  const editor = useProfileEditor(educatorId);
  const { draft, loaded, profile, update, err } = editor;

  if (!draft || !loaded || !profile) return <LoadingOrAlert alertRef={editor.alertRef} alert={editor.alert} loading="Loading your profile…" />;

  const section = { draft, update, err };
  return (
    <form className="edu-form" onSubmit={editor.submit} noValidate data-testid="profile-form">
      <AlertSlot alertRef={editor.alertRef} alert={editor.alert} onReload={() => void editor.load()} />
      <IdentitySection {...section} host={host} protocol={protocol} slugChanged={draft.slug.trim() !== loaded.slug} oldSlugs={profile.oldSlugs} />
      <AboutSection {...section} educatorId={educatorId} />
      <ContactSection {...section} />

      <section aria-labelledby="sec-hours">
        <h2 id="sec-hours">Opening hours</h2>
        <OpeningHours value={draft.hours} fields={{ ...editor.local, ...editor.serverFields }} onChange={(hours) => update({ hours }, 'working_hours')} />
      </section>

      <BrandingSection {...section} />
      <FlagsSection {...section} />
      <AnalyticsSection {...section} />
      <VatSection {...section} />
      <TermsSection {...section} />

      <div className="edu-savebar">
        <button className="btn" type="submit" disabled={editor.busy}>{editor.busy ? 'Saving…' : 'Save changes'}</button>
        {editor.dirty && <button type="button" className="btn btn--secondary" onClick={editor.discard}>Discard changes</button>}
        <p role="status" data-testid="save-status">{editor.status || (editor.dirty ? 'You have unsaved changes.' : '')}</p>
      </div>
      <PublishStatus educatorId={educatorId} savedAt={editor.savedAt} />
    </form>
  );
}
