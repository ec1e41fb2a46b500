/**
 * The SVG plot: particle-steps a second against the particle count, log-log,
 * one line a step variant, the CPU reference, and the two rooflines drawn as
 * the step's ceiling (each copy's GB/s over the step's bytes a particle-step).
 * Written by hand: a string, no DOM, so Node and the page share it.
 */
import { ALL_VARIANTS, DEFAULT_VARIANT, variantName } from '../core/variants';
import { BYTES, totalBytes } from './roofline';
import type { BenchReport } from './report';

interface Series {
  label: string;
  color: string;
  dash?: string;
  points: { x: number; y: number }[];
}

const WIDTH = 1000;
const HEIGHT = 600;
const MARGIN = { left: 90, right: 370, top: 70, bottom: 60 };
const VARIANT_COLORS = ['#1f77b4', '#2ca02c', '#9467bd', '#17becf', '#8c564b', '#e377c2'];

function escapeXml(text: string): string {
  return text.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c,
  );
}

/** 1.5e7 as `15 M`, 2e5 as `200 k`. */
function rateLabel(value: number): string {
  if (value >= 1e9) return `${+(value / 1e9).toPrecision(3)} G`;
  if (value >= 1e6) return `${+(value / 1e6).toPrecision(3)} M`;
  if (value >= 1e3) return `${+(value / 1e3).toPrecision(3)} k`;
  return `${+value.toPrecision(3)}`;
}

function seriesOf(report: BenchReport): Series[] {
  const points = (name: string, scale = 1) =>
    report.cases
      .filter((c) => c.name === name && Number.isFinite(c.particleStepsPerSecond))
      .map((c) => ({ x: c.particles, y: c.particleStepsPerSecond * scale }))
      .sort((a, b) => a.x - b.x);
  const stepBytes = totalBytes(BYTES.step);
  const copyBytes = totalBytes(BYTES.copy);
  // A copy moving copyBytes a particle at rate r sustains r * copyBytes / stepBytes steps.
  const series: Series[] = [
    {
      label: `roofline: copy kernel GB/s / ${stepBytes} B`,
      color: '#d62728',
      dash: '8 5',
      points: points('copy', copyBytes / stepBytes),
    },
    {
      label: `roofline: copyBufferToBuffer GB/s / ${stepBytes} B`,
      color: '#ff7f0e',
      dash: '2 4',
      points: points('buffer-copy', copyBytes / stepBytes),
    },
    {
      label: `CPU reference (float32, ${variantName(DEFAULT_VARIANT)})`,
      color: '#555555',
      dash: '12 4 2 4',
      points: points('cpu-reference'),
    },
  ];
  ALL_VARIANTS.forEach((variant, i) => {
    const name = `step/${variantName(variant)}`;
    series.push({ label: name, color: VARIANT_COLORS[i % VARIANT_COLORS.length] as string, points: points(name) });
  });
  return series.filter((s) => s.points.length > 0);
}

export function benchSvg(report: BenchReport): string {
  const series = seriesOf(report);
  const xs = series.flatMap((s) => s.points.map((p) => Math.log2(p.x)));
  const ys = series.flatMap((s) => s.points.map((p) => Math.log10(p.y)));
  let [xMin, xMax] = [Math.min(...xs), Math.max(...xs)];
  if (!(xMax > xMin)) [xMin, xMax] = [xMin - 1, xMax + 1];
  let [yMin, yMax] = [Math.floor(Math.min(...ys)), Math.ceil(Math.max(...ys))];
  if (!(yMax > yMin)) [yMin, yMax] = [yMin - 1, yMax + 1];
  if (!Number.isFinite(xMin) || !Number.isFinite(yMin)) [xMin, xMax, yMin, yMax] = [16, 24, 5, 9];
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const px = (log2: number) => MARGIN.left + ((log2 - xMin) / (xMax - xMin)) * plotW;
  const py = (log10: number) => MARGIN.top + plotH - ((log10 - yMin) / (yMax - yMin)) * plotH;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" ` +
      `font-family="system-ui, sans-serif" font-size="13">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
    `<text x="${MARGIN.left}" y="28" font-size="17" font-weight="bold">Sparkworks: particle step throughput against count</text>`,
    `<text x="${MARGIN.left}" y="50" fill="#444">${escapeXml(
      `${report.adapter.description || report.adapter.vendor}, ${report.adapter.source.split(' (')[0]}; timing: ${report.adapter.timing}`,
    )}</text>`,
  );
  // Grid and axes: a line every power of two and every decade, minor lines at 2x and 5x.
  for (let e = Math.ceil(xMin); e <= Math.floor(xMax); e++) {
    out.push(
      `<line x1="${px(e)}" y1="${MARGIN.top}" x2="${px(e)}" y2="${MARGIN.top + plotH}" stroke="#e4e4e4"/>`,
      `<text x="${px(e)}" y="${MARGIN.top + plotH + 20}" text-anchor="middle">2<tspan dy="-6" font-size="10">${e}</tspan></text>`,
    );
  }
  for (let d = yMin; d <= yMax; d++) {
    out.push(
      `<line x1="${MARGIN.left}" y1="${py(d)}" x2="${MARGIN.left + plotW}" y2="${py(d)}" stroke="#d0d0d0"/>`,
      `<text x="${MARGIN.left - 8}" y="${py(d) + 4}" text-anchor="end">${rateLabel(10 ** d)}</text>`,
    );
    for (const minor of [2, 5]) {
      const at = d + Math.log10(minor);
      if (at < yMax) {
        out.push(
          `<line x1="${MARGIN.left}" y1="${py(at)}" x2="${MARGIN.left + plotW}" y2="${py(at)}" stroke="#f0f0f0"/>`,
        );
      }
    }
  }
  out.push(
    `<rect x="${MARGIN.left}" y="${MARGIN.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#888"/>`,
    `<text x="${MARGIN.left + plotW / 2}" y="${HEIGHT - 16}" text-anchor="middle">particles (log scale)</text>`,
    `<text transform="translate(22 ${MARGIN.top + plotH / 2}) rotate(-90)" text-anchor="middle">particle-steps per second (log scale)</text>`,
  );
  // The series, then the legend.
  series.forEach((s, i) => {
    const path = s.points.map(
      (p, j) => `${j === 0 ? 'M' : 'L'}${px(Math.log2(p.x)).toFixed(1)},${py(Math.log10(p.y)).toFixed(1)}`,
    );
    const dash = s.dash ? ` stroke-dasharray="${s.dash}"` : '';
    out.push(`<path d="${path.join(' ')}" fill="none" stroke="${s.color}" stroke-width="2.2"${dash}/>`);
    for (const p of s.points) {
      out.push(
        `<circle cx="${px(Math.log2(p.x)).toFixed(1)}" cy="${py(Math.log10(p.y)).toFixed(1)}" r="3.2" fill="${s.color}"/>`,
      );
    }
    const ly = MARGIN.top + 10 + i * 22;
    const lx = MARGIN.left + plotW + 20;
    out.push(
      `<line x1="${lx}" y1="${ly}" x2="${lx + 34}" y2="${ly}" stroke="${s.color}" stroke-width="2.2"${dash}/>`,
      `<text x="${lx + 42}" y="${ly + 4}">${escapeXml(s.label)}</text>`,
    );
  });
  const notes = [
    "Rooflines: each copy's bandwidth at that count,",
    `divided by the step's ${totalBytes(BYTES.step)} B a particle-step`,
    `(${BYTES.step.read} B read, ${BYTES.step.written} B written).`,
  ];
  notes.forEach((line, i) => {
    out.push(
      `<text x="${MARGIN.left + plotW + 20}" y="${MARGIN.top + 20 + series.length * 22 + i * 17}" fill="#555" font-size="12">${escapeXml(line)}</text>`,
    );
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}
