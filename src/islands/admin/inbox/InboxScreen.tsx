/**
 * The Inbox screen (/inbox): enquiries and waitlist entries, newest first; open one to read it (marks it read),
 * reply (e-mailed to the learner), mark done or reopen.
 */
import { useEffect, useState } from 'react';
import { adminFetch, type AdminProblem } from '../api.ts';
import { useUnsavedWarning } from '../useUnsavedWarning.ts';
import { Notice, ProblemAlert, SelectField, TextArea, educatorPath, useSave } from '../catalogue/kit.tsx';
import '../business.css';

interface Item {
  id: string; type: 'message' | 'waitlist'; createdAt: number; firstName: string; lastName: string; email: string; phone: string;
  message: string | null; enquiryType: string | null; courseName: string | null; context: string; readAt: number | null; doneAt: number | null; notifiedAt: number | null; replies: number;
}
interface Opened extends Omit<Item, 'replies'> { replies: { id: string; message: string; createdAt: number }[] }

const when = (s: number) => new Date(s * 1000).toLocaleString('en-GB', { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', timeZone: 'Europe/London' });

/** The opened enquiry or waitlist entry: who, what they wrote, the replies so far, and the reply form. */
function OpenedCard({ opened, reply, setReply, save, onSend, onDone, onClose }: {
  opened: Opened; reply: string; setReply: (v: string) => void; save: ReturnType<typeof useSave>; onSend: () => void; onDone: (done: boolean) => void; onClose: () => void;
}) {
  return (
    <section className="biz-card" aria-labelledby="opened-heading">
      <h2 id="opened-heading">{opened.type === 'waitlist' ? 'Waitlist' : 'Enquiry'} from {opened.firstName} {opened.lastName}</h2>
      <p className="biz-muted">{when(opened.createdAt)} · <a href={`mailto:${opened.email}`}>{opened.email}</a> · <a href={`tel:${opened.phone}`}>{opened.phone}</a>{opened.courseName ? ` · ${opened.courseName}` : ''}{opened.enquiryType ? ` · ${opened.enquiryType}` : ''}</p>
      {opened.message ? <p className="biz-message">{opened.message}</p> : null}
      {opened.type === 'waitlist' ? <p>{opened.notifiedAt ? `Told about new dates on ${when(opened.notifiedAt)}.` : 'Not told yet: they will be e-mailed once when a date is added.'}</p> : null}
      {opened.replies.map((r) => <blockquote key={r.id} className="biz-response"><p className="biz-muted">You replied {when(r.createdAt)}</p><p>{r.message}</p></blockquote>)}
      <form noValidate onSubmit={(e) => { e.preventDefault(); onSend(); }}>
        <ProblemAlert problem={save.problem} />
        <TextArea label={`Reply to ${opened.firstName} (sent by e-mail)`} name="message" rows={5} value={reply} onChange={setReply} errors={save.errors} />
        <div className="cat-actions">
          <button type="submit" className="btn" disabled={save.busy}>Send reply</button>
          {opened.doneAt ? <button type="button" className="btn btn--secondary" onClick={() => onDone(false)}>Reopen</button>
            : <button type="button" className="btn btn--secondary" onClick={() => onDone(true)}>Mark done</button>}
          <button type="button" className="btn btn--secondary" onClick={onClose}>Close</button>
        </div>
      </form>
    </section>
  );
}

function InboxList({ items, onOpen }: { items: Item[]; onOpen: (id: string) => void }) {
  return (
    <ul className="biz-list">
      {items.map((i) => (
        <li key={i.id} className="biz-card">
          <h2 className={`biz-card__title${i.readAt ? '' : ' biz-unread'}`}>
            <button type="button" className="btn-link" onClick={() => onOpen(i.id)}>
              {i.firstName} {i.lastName}{i.readAt ? '' : ' (unread)'}
            </button>
          </h2>
          <p className="biz-muted">{i.type === 'waitlist' ? 'Waitlist' : 'Enquiry'}{i.courseName ? ` · ${i.courseName}` : ''} · {when(i.createdAt)}{i.replies ? ` · ${i.replies} ${i.replies === 1 ? 'reply' : 'replies'}` : ''}{i.doneAt ? ' · Done' : ''}</p>
          {i.message ? <p>{i.message.length > 160 ? `${i.message.slice(0, 160)}…` : i.message}</p> : null}
        </li>
      ))}
    </ul>
  );
}

export default function InboxScreen({ educatorId }: { educatorId: string }) {
  const [type, setType] = useState('');
  const [state, setState] = useState('open');
  const [items, setItems] = useState<Item[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [problem, setProblem] = useState<AdminProblem | null>(null);
  const [opened, setOpened] = useState<Opened | null>(null);
  const [reply, setReply] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const save = useSave();
  useUnsavedWarning(reply.trim() !== '');

  async function load(before: string | null) {
    const q = new URLSearchParams({ state, ...(type ? { type } : {}), ...(before ? { before } : {}) });
    const res = await adminFetch<{ items: Item[]; next: string | null }>('GET', educatorPath(educatorId, `/inbox?${q}`));
    if (!res.ok) return setProblem(res.problem);
    setItems((old) => (before && old ? [...old, ...res.data.items] : res.data.items));
    setNext(res.data.next);
  }
  useEffect(() => { void load(null); }, [educatorId, type, state]); // eslint-disable-line react-hooks/exhaustive-deps

  async function open(id: string) {
    const res = await adminFetch<Opened>('GET', educatorPath(educatorId, `/inbox/${encodeURIComponent(id)}`));
    if (!res.ok) return setProblem(res.problem);
    setOpened(res.data);
    setReply('');
    save.clear();
    setItems((list) => list?.map((i) => (i.id === id ? { ...i, readAt: res.data.readAt } : i)) ?? list);
  }

  async function send() {
    if (!opened) return;
    const res = await save.run('POST', educatorPath(educatorId, `/inbox/${encodeURIComponent(opened.id)}/reply`), { message: reply });
    if (!res) return;
    setNotice(`Reply sent to ${opened.email}.`);
    setReply('');
    await open(opened.id);
    await load(null);
  }

  async function markDone(done: boolean) {
    if (!opened) return;
    const res = await save.run('PUT', educatorPath(educatorId, `/inbox/${encodeURIComponent(opened.id)}/done`), { done });
    if (!res) return;
    setNotice(done ? `Marked done.` : `Reopened.`);
    setOpened(null);
    await load(null);
  }

  return (
    <div className="biz" data-testid="inbox-screen">
      <div className="biz-filters">
        <SelectField label="Show" name="type" value={type} onChange={setType} options={[{ value: '', label: 'Enquiries and waitlist' }, { value: 'message', label: 'Enquiries' }, { value: 'waitlist', label: 'Waitlist' }]} />
        <SelectField label="State" name="state" value={state} onChange={setState} options={[{ value: 'open', label: 'To do' }, { value: 'done', label: 'Done' }, { value: 'all', label: 'All' }]} />
      </div>
      <Notice text={notice} />
      <ProblemAlert problem={problem} />
      {opened ? <OpenedCard opened={opened} reply={reply} setReply={setReply} save={save} onSend={() => void send()} onDone={(done) => void markDone(done)} onClose={() => setOpened(null)} /> : null}
      {!items ? <p role="status">Loading the inbox…</p> : items.length === 0 ? <p className="admin-empty">Nothing here.</p> : <InboxList items={items} onOpen={(id) => void open(id)} />}
      {next ? <p><button type="button" className="btn btn--secondary" onClick={() => void load(next)}>Load more</button></p> : null}
    </div>
  );
}
