/**
 * The period the business screens (Numbers, Money) show: the last 30 days by default, changed with a From / To form
 * and fetched only when the admin presses Show, so half-typed dates are never sent.
 */
import { useState } from 'react';
import { ProblemAlert, TextField, educatorPath, useAdminData } from './catalogue/kit.tsx';

/** The figures of `area` for the period, the period's form, and the problem of the last answer. */
export function usePeriodData<T>(educatorId: string, area: string) {
  const today = new Date().toISOString().slice(0, 10);
  const monthAgo = new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10);
  const [from, setFrom] = useState(monthAgo);
  const [to, setTo] = useState(today);
  const [query, setQuery] = useState({ from: monthAgo, to: today });
  const { data, problem } = useAdminData<T>(educatorPath(educatorId, `/${area}?${new URLSearchParams(query)}`));
  const form = (
    <>
      <form className="biz-filters" noValidate onSubmit={(e) => { e.preventDefault(); setQuery({ from, to }); }}>
        <TextField label="From" name="from" type="date" value={from} onChange={setFrom} errors={problem?.fields} />
        <TextField label="To" name="to" type="date" value={to} onChange={setTo} errors={problem?.fields} />
        <button type="submit" className="btn">Show</button>
      </form>
      <ProblemAlert problem={problem} />
    </>
  );
  return { data, form };
}
