/**
 * Charts through uPlot (small, canvas, no dependencies): bars for counts by
 * category, lines over time. Each chart follows its container's width and
 * returns what disconnects it. Every chart sits next to a table with the same
 * numbers, which is what a screen reader or a keyboard reads.
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

const COLORS = ['#2563eb', '#f59e0b', '#10b981', '#ef4444'];
const HEIGHT = 240;

export interface Series {
  label: string;
  values: number[];
}

function follow(el: HTMLElement, plot: uPlot): () => void {
  const observer = new ResizeObserver(() => plot.setSize({ width: Math.max(el.clientWidth, 200), height: HEIGHT }));
  observer.observe(el);
  return () => {
    observer.disconnect();
    plot.destroy();
  };
}

/** A category label cut to what its share of the width holds (about 7 px a character). */
const shorten = (label: string, room: number) => {
  const max = Math.max(3, Math.floor(room / 7));
  return label.length > max ? `${label.slice(0, max - 1)}…` : label;
};

/** Axis numbers people read at a glance: 2.5M, 480k. */
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
const countAxis = { size: 56, values: (_u: uPlot, splits: number[]) => splits.map((n) => compact.format(n)) };

/** Grouped bars, one group per label. */
export function barChart(el: HTMLElement, labels: string[], series: Series[]): () => void {
  const bars = uPlot.paths.bars!({ size: [0.7, 60], align: 0 });
  const plot = new uPlot(
    {
      width: Math.max(el.clientWidth, 200),
      height: HEIGHT,
      legend: { show: series.length > 1 },
      cursor: { show: true, points: { show: false } },
      scales: { x: { time: false, range: [-0.5, labels.length - 0.5] } },
      axes: [
        { splits: () => labels.map((_, i) => i), values: (u, splits) => splits.map((i) => shorten(labels[i] ?? '', u.bbox.width / devicePixelRatio / labels.length)), gap: 4, size: 36 },
        countAxis,
      ],
      series: [{ label: 'group', value: (_u, i) => (i === null ? '' : (labels[i] ?? '')) }, ...series.map((s, i) => ({ label: s.label, fill: COLORS[i % COLORS.length], stroke: COLORS[i % COLORS.length], paths: bars, points: { show: false } }))],
    },
    [labels.map((_, i) => i), ...series.map((s) => s.values)],
    el,
  );
  return follow(el, plot);
}

/** Lines over time; `t` in Unix seconds. */
export function timeline(el: HTMLElement, t: number[], series: Series[]): () => void {
  const plot = new uPlot(
    {
      width: Math.max(el.clientWidth, 200),
      height: HEIGHT,
      scales: { x: { time: true } },
      axes: [{}, countAxis],
      series: [{}, ...series.map((s, i) => ({ label: s.label, stroke: COLORS[i % COLORS.length], width: 2, points: { show: t.length < 40 } }))],
    },
    [t, ...series.map((s) => s.values)],
    el,
  );
  return follow(el, plot);
}
