/**
 * The bench report: a run with its comparisons (src/bench/comparisons.ts)
 * and targets (src/bench/targets.ts) beside it, and what the front ends
 * show of it: the table the terminal and the page both print, the summary
 * lines, and the JSON document.
 */
import { chunkingRatioLines } from './chunkingRatio';
import { DEFAULT_STEP, findCase } from './caseLookup';
import { comparisons, type Comparison } from './comparisons';
import { emitterLines, emitterRatioLines } from './emitterLines';
import { percent } from './figureFormat';
import type { BenchRun } from './results';
import { sortRatioLines } from './sortRatio';
import type { Target } from './target';
import { targets } from './targets';

export interface BenchReport extends BenchRun {
  comparisons: Comparison[];
  targets: Target[];
}

export function buildReport(run: BenchRun): BenchReport {
  return { ...run, comparisons: comparisons(run.cases), targets: targets(run) };
}

/** The table both front ends print: a header row and one row a case. */
export function tableRows(report: BenchReport): { head: string[]; rows: string[][] } {
  const head = [
    'case',
    'particles',
    'M steps/s',
    'B/step',
    'GB/s',
    'of copy',
    'of buf copy',
    'ms/step',
    'min..max ms',
    'timing',
  ];
  const fixed = (x: number, digits: number) => (Number.isFinite(x) ? x.toFixed(digits) : '-');
  const rows = report.cases.map((c) => [
    c.name,
    `2^${Math.log2(c.particles)}`,
    fixed(c.particleStepsPerSecond / 1e6, 2),
    Number.isInteger(c.bytesPerParticleStep) ? String(c.bytesPerParticleStep) : fixed(c.bytesPerParticleStep, 1),
    fixed(c.gigabytesPerSecond, 2),
    Number.isFinite(c.fractionOfCopy) ? percent(c.fractionOfCopy) : '-',
    Number.isFinite(c.fractionOfBufferCopy) ? percent(c.fractionOfBufferCopy) : '-',
    fixed(c.medianMs, 3),
    `${fixed(c.spread.minMs, 3)}..${fixed(c.spread.maxMs, 3)}`,
    c.timing === 'timestamp-query' ? 'timestamps' : c.timing,
  ]);
  return { head, rows };
}

/** Plain lines: comparisons, targets, what was skipped or not measured. */
export function summaryLines(report: BenchReport): string[] {
  const lines: string[] = [];
  for (const c of report.comparisons) {
    const parts = c.contenders.map((k) => {
      const range = k.ratios.map((r) => `2^${Math.log2(r.particles)}: ${r.ratio.toFixed(2)}x`).join(', ');
      return `${k.label} ${k.meanRatio.toFixed(2)}x (${range})`;
    });
    lines.push(`${c.question} — best: ${c.best}; vs ${c.baseline}: ${parts.join('; ')}`);
  }
  for (const t of report.targets) {
    const status = t.met === null ? 'NOT MEASURED' : t.met ? 'MET' : 'NOT MET';
    lines.push(`target ${t.target}: ${status}${t.applies ? '' : ' (does not apply to this adapter)'} — ${t.figure}`);
  }
  lines.push(...emitterLines(report.cases));
  if (report.emitterRatio) lines.push(...emitterRatioLines(report.emitterRatio));
  if (report.sortRatio) lines.push(...sortRatioLines(report.sortRatio));
  if (report.chunkingRatio) lines.push(...chunkingRatioLines(report.chunkingRatio));
  for (const c of report.cases.filter((k) => k.group === 'collisions')) {
    const step = findCase(report.cases, DEFAULT_STEP, c.particles);
    if (step) {
      lines.push(
        `${c.name} @ 2^${Math.log2(c.particles)}: ${c.medianMs.toFixed(2)} ms a step = ` +
          `${(c.medianMs / step.medianMs).toFixed(2)}x the step without colliders`,
      );
    }
  }
  for (const s of report.skipped) lines.push(`skipped ${s}`);
  for (const n of report.notMeasured) lines.push(`not measured: ${n}`);
  return lines;
}

/** The JSON document: the contract fields of every case, everything else beside them. */
export function reportJson(report: BenchReport): string {
  return (
    JSON.stringify(report, (_, value) => (typeof value === 'number' && !Number.isFinite(value) ? null : value), 2) +
    '\n'
  );
}
