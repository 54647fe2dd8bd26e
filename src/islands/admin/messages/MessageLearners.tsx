/**
 * Message every learner of a date (on its register) or of a course (on its dates page) at once — a room change, a
 * reminder (docs/admin.md "Messages"). One e-mail per learner through the outbox; each booking's page keeps it.
 * Sending asks once more first, as it cannot be taken back; the messages sent so far are listed below.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { Notice, ProblemAlert, TextArea, TextField, educatorPath, useAdminData, useSave } from '../catalogue/kit.tsx';
import '../business.css';

interface Sent { id: string; subject: string; message: string; recipients: number; createdAt: number; by: string | null }

const when = (s: number) => new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/London' }).format(new Date(s * 1000));

export default function MessageLearners({ educatorId, occurrenceId, courseId }: { educatorId: string; occurrenceId?: string; courseId?: string }) {
  const path = educatorPath(educatorId, occurrenceId ? `/registers/${encodeURIComponent(occurrenceId)}/messages` : `/courses/${encodeURIComponent(courseId ?? '')}/messages`);
  const who = occurrenceId ? 'this date' : 'this course';
  const { data, reload } = useAdminData<{ messages: Sent[] }>(path);
  const save = useSave();
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const headingId = `msg-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const confirmButton = useRef<HTMLButtonElement>(null);
  // The Send button gives way to the confirmation: the focus moves to its button, so a keyboard user carries on there.
  useEffect(() => { if (confirming) confirmButton.current?.focus(); }, [confirming]);

  async function send() {
    setNotice(null);
    const sent = await save.run<{ recipients: number }>('POST', path, { subject, message });
    setConfirming(false);
    if (!sent) return;
    setSubject('');
    setMessage('');
    setNotice(`Sent to ${sent.recipients} ${sent.recipients === 1 ? 'learner' : 'learners'}.`);
    await reload();
  }

  return (
    <section className="biz no-print" aria-labelledby={headingId} data-testid="message-learners">
      <h2 id={headingId}>Message every learner of {who}</h2>
      <p className="biz-muted">{occurrenceId
        ? 'Each learner booked on this date gets one e-mail (a room change, a reminder). It is kept on each booking\'s page.'
        : 'Each learner booked on one of this course\'s dates still to come gets one e-mail. It is kept on each booking\'s page.'}</p>
      <form noValidate onSubmit={(e) => { e.preventDefault(); setNotice(null); save.clear(); setConfirming(true); }}>
        <TextField label="Subject" name="subject" value={subject} onChange={setSubject} errors={save.errors} />
        <TextArea label="Message" name="message" value={message} onChange={setMessage} errors={save.errors} rows={5} />
        {confirming ? (
          <div role="group" aria-label="Confirm sending" className="cat-actions">
            <p>Send this e-mail to every learner of {who}? It cannot be taken back.</p>
            <button ref={confirmButton} type="button" className="btn" disabled={save.busy} onClick={() => void send()}>{save.busy ? 'Sending…' : 'Send now'}</button>
            <button type="button" className="btn btn--secondary" onClick={() => setConfirming(false)}>Cancel</button>
          </div>
        ) : <button type="submit" className="btn">Send to learners</button>}
      </form>
      <Notice text={notice} />
      <ProblemAlert problem={save.problem} />
      {data?.messages.length ? (
        <>
          <h3>Sent</h3>
          <ul className="biz-list">{data.messages.map((m) => (
            <li key={m.id} className="biz-card">
              <p className="biz-card__title">{m.subject}</p>
              <p className="biz-muted">{when(m.createdAt)} · {m.recipients} {m.recipients === 1 ? 'learner' : 'learners'}{m.by ? ` · by ${m.by}` : ''}</p>
              <p className="biz-message">{m.message}</p>
            </li>
          ))}</ul>
        </>
      ) : null}
    </section>
  );
}
