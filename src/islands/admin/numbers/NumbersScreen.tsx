/**
 * The Numbers screen (/numbers): views, enquiries, the checkout funnel by step and conversion per context and per
 * course over a chosen period. Charts are drawn with Chart.js (canvas, tree-shaken to the bar chart's parts);
 * every figure is also in a table, which is what screen readers read (the canvases are hidden from them).
 */
import { useEffect, useRef } from 'react';
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';
import { usePeriodData } from '../period.tsx';
import '../business.css';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend);

interface Row { views: number; checkouts: number; completed: number; conversion: number | null }
interface NumbersView {
  from: number; to: number; profileViews: number; courseViews: number; enquiries: number;
  funnel: { step: string; label: string; count: number }[];
  byContext: Array<{ context: string } & Row>;
  byCourse: Array<{ courseId: string; courseName: string } & Row>;
}

const day = (s: number) => new Date(s * 1000).toISOString().slice(0, 10);
const pct = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);
const CONTEXT_LABELS: Record<string, string> = { marketplace: 'Marketplace', minisite: 'Your site', embed: 'Embed' };

function BarChart({ labels, series, title }: { labels: string[]; series: { label: string; data: number[]; color: string }[]; title: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return undefined;
    const chart = new Chart(canvas.current, {
      type: 'bar',
      data: { labels, datasets: series.map((s) => ({ label: s.label, data: s.data, backgroundColor: s.color })) },
      options: { responsive: true, maintainAspectRatio: false, animation: false, plugins: { legend: { display: series.length > 1 } }, scales: { y: { beginAtZero: true, ticks: { precision: 0 } } } },
    });
    return () => chart.destroy();
  }, [labels, series]);
  return <div className="biz-chart"><canvas ref={canvas} aria-hidden="true" data-title={title} /></div>;
}

export default function NumbersScreen({ educatorId }: { educatorId: string }) {
  const { data, form } = usePeriodData<NumbersView>(educatorId, 'numbers');

  return (
    <div className="biz" data-testid="numbers-screen">
      {form}
      {!data ? <p role="status">Loading the figures…</p> : (
        <>
          <p role="status">From {day(data.from)} to {day(data.to - 1)}: {data.profileViews} profile views, {data.courseViews} course page views, {data.enquiries} enquiries.</p>
          <section aria-labelledby="funnel-heading">
            <h2 id="funnel-heading">Checkout funnel</h2>
            <BarChart title="Checkout funnel" labels={data.funnel.map((f) => f.label)} series={[{ label: 'Checkouts', data: data.funnel.map((f) => f.count), color: '#1d4ed8' }]} />
            <div className="biz-table-wrap" tabIndex={0} role="region" aria-label="Checkout funnel figures">
              <table className="admin-table">
                <caption>Checkouts reaching each step</caption>
                <thead><tr><th scope="col">Step</th><th scope="col">Checkouts</th><th scope="col">Of started</th></tr></thead>
                <tbody>{data.funnel.map((f) => <tr key={f.step}><th scope="row">{f.label}</th><td>{f.count}</td><td>{pct(data.funnel[0]!.count ? f.count / data.funnel[0]!.count : null)}</td></tr>)}</tbody>
              </table>
            </div>
          </section>
          <section aria-labelledby="context-heading">
            <h2 id="context-heading">By context</h2>
            <BarChart title="By context" labels={data.byContext.map((r) => CONTEXT_LABELS[r.context] ?? r.context)} series={[
              { label: 'Course page views', data: data.byContext.map((r) => r.views), color: '#94a3b8' },
              { label: 'Checkouts', data: data.byContext.map((r) => r.checkouts), color: '#1d4ed8' },
              { label: 'Completed', data: data.byContext.map((r) => r.completed), color: '#15803d' },
            ]} />
            <FiguresTable caption="Views, checkouts and conversion per context" rows={data.byContext.map((r) => ({ key: r.context, name: CONTEXT_LABELS[r.context] ?? r.context, ...r }))} />
          </section>
          <section aria-labelledby="course-heading">
            <h2 id="course-heading">By course</h2>
            {data.byCourse.length === 0 ? <p className="admin-empty">No course views or checkouts in this period.</p>
              : <FiguresTable caption="Views, checkouts and conversion per course" rows={data.byCourse.map((r) => ({ key: r.courseId, name: r.courseName, ...r }))} />}
          </section>
        </>
      )}
    </div>
  );
}

function FiguresTable({ caption, rows }: { caption: string; rows: Array<{ key: string; name: string } & Row> }) {
  return (
    // Scrolls sideways on a phone: focusable, so a keyboard can scroll it too.
    <div className="biz-table-wrap" tabIndex={0} role="region" aria-label={caption}>
      <table className="admin-table">
        <caption>{caption}</caption>
        <thead><tr><th scope="col">Name</th><th scope="col">Course page views</th><th scope="col">Checkouts</th><th scope="col">Completed</th><th scope="col">Conversion</th></tr></thead>
        <tbody>{rows.map((r) => <tr key={r.key}><th scope="row">{r.name}</th><td>{r.views}</td><td>{r.checkouts}</td><td>{r.completed}</td><td>{pct(r.conversion)}</td></tr>)}</tbody>
      </table>
    </div>
  );
}
