/**
 * The issue's targets, reported, never asserted: the step's bandwidth
 * against the copy kernel's, the state's bytes a particle, the GPU step
 * against the CPU reference and the typical forces against the step, here;
 * the collider, contact and emitter targets from their own modules, in the
 * order the report lists them.
 */
import { BYTES_PER_PARTICLE } from '../core/layout';
import { DEFAULT_STEP, DEFAULT_TAIL, findCase } from './caseLookup';
import { colliderTargets } from './colliderTargets';
import { contactTarget } from './contactRatio';
import { emitterTargets } from './emitterTargets';
import { millions, percent } from './figureFormat';
import type { BenchRun, CaseResult } from './results';
import { notMeasured, type Target } from './target';

export function targets(run: BenchRun): Target[] {
  const { cases } = run;
  const out: Target[] = [];

  // 1. The step at >= 2^20 particles against 85% of the copy kernel's bandwidth.
  const large = cases.filter((c) => c.group === 'step' && c.particles >= 2 ** 20);
  if (large.length === 0) {
    out.push({
      target: 'step at >= 2^20 particles >= 85% of the copy kernel bandwidth',
      met: null,
      figure: 'not measured: no count >= 2^20 in this run (drop --quick or add --sizes 20)',
      applies: true,
    });
  } else {
    const top = Math.max(...large.map((c) => c.particles));
    const atTop = large.filter((c) => c.particles === top);
    const worst = atTop.reduce((a, b) => (b.fractionOfCopy < a.fractionOfCopy ? b : a));
    const main = atTop.find((c) => c.name === DEFAULT_STEP) ?? worst;
    out.push({
      target: 'step at >= 2^20 particles >= 85% of the copy kernel bandwidth (every variant)',
      met: atTop.every((c) => c.fractionOfCopy >= 0.85),
      figure:
        `at 2^${Math.log2(top)}: ${main.name} ${main.gigabytesPerSecond.toFixed(2)} GB/s = ` +
        `${percent(main.fractionOfCopy)} of copy; worst ${worst.name} ${percent(worst.fractionOfCopy)}`,
      applies: true,
    });
  }

  // 2. The state's bytes a particle.
  out.push({
    target: 'particle state <= 64 bytes a particle',
    met: BYTES_PER_PARTICLE <= 64,
    figure: `BYTES_PER_PARTICLE = ${BYTES_PER_PARTICLE}`,
    applies: true,
  });

  // 3. On a software adapter, the GPU step against twice the CPU reference, same process, same count.
  const pairs = cases
    .filter((c) => c.name === 'cpu-reference')
    .flatMap((cpu) => {
      const gpu = findCase(cases, DEFAULT_STEP, cpu.particles);
      return gpu ? [{ cpu, gpu }] : [];
    });
  if (pairs.length === 0) {
    out.push(notMeasured('GPU step >= 2x the CPU reference'));
  } else {
    const { cpu, gpu } = pairs.reduce((a, b) => (b.cpu.particles > a.cpu.particles ? b : a));
    const ratio = gpu.particleStepsPerSecond / cpu.particleStepsPerSecond;
    const copy = findCase(cases, 'copy', gpu.particles);
    const ceiling = copy
      ? `; the copy kernel itself moves ${millions(copy.particleStepsPerSecond)} particles = ` +
        `${(copy.particleStepsPerSecond / cpu.particleStepsPerSecond).toFixed(2)}x the CPU step`
      : '';
    // The other variants at the same count: the CPU's cost depends on them far more than the GPU's.
    const others = cases
      .filter((c) => c.name.startsWith('cpu-reference/') && c.particles === gpu.particles)
      .flatMap((c) => {
        const step = findCase(cases, `step/${c.variant}`, c.particles);
        return step ? [`${c.variant} ${(step.particleStepsPerSecond / c.particleStepsPerSecond).toFixed(2)}x`] : [];
      });
    out.push({
      target: 'GPU step >= 2x the CPU reference (software adapter)',
      met: ratio >= 2,
      figure:
        `at 2^${Math.log2(gpu.particles)}: GPU ${millions(gpu.particleStepsPerSecond)} / CPU ` +
        `${millions(cpu.particleStepsPerSecond)} = ${ratio.toFixed(2)}x (${DEFAULT_TAIL})${ceiling}` +
        (others.length > 0 ? `; other variants: ${others.join(', ')}` : ''),
      applies: run.adapter.software,
    });
  }
  // 4. The forces issue: the typical effect's forces cost no more than the step, at the largest count measured.
  // The figure judged is the alternating rounds' (run.forceRatio): the cases below were timed minutes apart.
  const separate = cases.filter((c) => c.name === 'forces-typical');
  const largest = separate.reduce<CaseResult | null>((a, b) => (a && a.particles >= b.particles ? a : b), null);
  const step = largest ? findCase(cases, DEFAULT_STEP, largest.particles) : undefined;
  const fused = largest ? findCase(cases, 'step-with-typical-forces', largest.particles) : undefined;
  const fromCases =
    largest && step
      ? {
          count: largest.particles,
          fused: fused ? (fused.medianMs - step.medianMs) / step.medianMs : null,
          pass: largest.medianMs / step.medianMs,
        }
      : null;
  const paired = run.forceRatio ?? null;
  const judged = paired ? { count: paired.count, fused: paired.fusedRatio, pass: paired.ratio } : fromCases;
  if (!judged) {
    out.push(notMeasured('typical forces <= the step'));
  } else {
    const ratio = (x: number | null) => (x === null ? 'n/a' : x.toFixed(2));
    out.push({
      target: 'typical forces (gravity, drag, attractor, turbulence) <= the step, at >= 2^20',
      // The default runs them fused into the step: what they add to it is what they cost.
      met: judged.count >= 1 << 20 ? (judged.fused ?? judged.pass) <= 1 : null,
      figure:
        `at 2^${Math.log2(judged.count)}${paired ? `, median of ${paired.fusedRatios.length} alternating rounds` : ''}: ` +
        `fused into the step (the default) they add ${ratio(judged.fused)}x the step; ` +
        `as a pass of their own ${ratio(judged.pass)}x the step` +
        (paired && fromCases
          ? `; from the cases, timed apart: fused ${ratio(fromCases.fused)}x, pass ${ratio(fromCases.pass)}x`
          : ''),
      applies: true,
    });
  }
  out.push(...colliderTargets(run));
  out.push(contactTarget(run.contactRatio ?? null));
  out.push(...emitterTargets(run.cases, run.emitterRatio ?? null));
  return out;
}
