/**
 * The plumbing of the actions on the bookings screens (a booking's page, Requests): one action at a time, the
 * server's problem shown in the open form, and the optional message to the learner that goes in the e-mail.
 */
import { useState } from 'react';
import { adminFetch, type AdminProblem } from '../api.ts';

/**
 * Runs POST actions one at a time (a second press while one runs is ignored), keeps the problem of the last one and
 * what its success said; `afterSuccess` closes the form and reloads.
 */
export function useAdminAction(afterSuccess: () => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<AdminProblem | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const act = async (path: string, body: unknown, success: (data: Record<string, unknown>) => string) => {
    if (busy) return;
    setBusy(true);
    setProblem(null);
    const res = await adminFetch<Record<string, unknown>>('POST', path, body);
    setBusy(false);
    if (!res.ok) {
      setProblem(res.problem);
      return;
    }
    setDone(success(res.data));
    await afterSuccess();
  };
  return { busy, problem, setProblem, done, setDone, act };
}

/** The request body's `reason`: the trimmed message, left out when there is none. */
export function reasonBody(text: string): { reason?: string } {
  return text.trim() ? { reason: text.trim() } : {};
}

export function ProblemLine({ problem }: { problem: AdminProblem | null }) {
  return problem && <p className="admin-status" data-kind="error" role="alert">{problem.detail}</p>;
}

/** What the last action said, announced (the live region is always there, so the message is read when it comes). */
export function DoneStatus({ done }: { done: string | null }) {
  return <div role="status">{done && <p className="admin-status" data-kind="success">{done}</p>}</div>;
}

export function ReasonField({ id, label, value, onChange, hint }: { id: string; label: string; value: string; onChange: (value: string) => void; hint?: string }) {
  return (
    <div className="admin-field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} rows={3} maxLength={1000} value={value} onChange={(e) => onChange(e.target.value)} />
      {hint && <p className="hint">{hint}</p>}
    </div>
  );
}
