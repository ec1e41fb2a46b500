/**
 * The speed issue's emitter targets (item 2): a frame at 100% live against
 * the plain step, and a frame at 10% live against the 100% frame, judged
 * from the cases or, where the run has them, from the alternating rounds
 * (src/bench/emitterRatio.ts).
 */
import { DEFAULT_STEP, findCase, poolAt } from './caseLookup';
import type { EmitterRatioResult } from './emitterRatio';
import { STATED_COUNT, statedSizeOf, type CaseResult } from './results';
import { notMeasured, type Target } from './target';

const FRAME_TARGET = 'emitters: a frame at 100% live <= 2.5x the plain step, at 2^20';
const TENTH_TARGET = 'emitters: a frame at 10% live <= 0.2 of the 100% frame, at 2^20';

/**
 * A frame at 100% live with the benchmark's churn <= 2.5x the plain step,
 * and a frame at 10% live <= 0.2 of the 100% frame, its live particles in
 * the slots the pool holds (the frame of a pool once full, its particles
 * spread over every slot, is quoted after, not judged). Judged at 2^20
 * slots, the size the issue states them at (where the run has no 2^20, at
 * the next count above it; with none from 2^20 up, at the largest, measured
 * but not judged); the figures of the run's other sizes from 2^20 up follow.
 * The cases are timed apart, minutes from the step: where the run has the
 * alternating rounds (`paired`), the targets are judged from those at their
 * size, the cases' figures quoted after.
 */
export function emitterTargets(cases: readonly CaseResult[], paired: EmitterRatioResult | null = null): Target[] {
  // Each size with a 100% frame: its plain step and its 10% frame, where the run has them.
  const sizes = cases
    .filter((c) => c.lifecycle?.targetFraction === 1 && c.lifecycle.fountain === undefined)
    .map((full) => ({
      full,
      step: findCase(cases, DEFAULT_STEP, full.particles),
      tenth: poolAt(cases, full.particles, 0.1),
      spreadTenth: poolAt(cases, full.particles, 0.1, true),
    }))
    .sort((a, b) => a.full.particles - b.full.particles);
  const judgedAt = statedSizeOf(sizes.map((s) => s.full.particles));
  const top = sizes.find((s) => s.full.particles === judgedAt);
  const judged = top !== undefined && top.full.particles >= STATED_COUNT;
  const others = sizes.filter((s) => s !== top && s.full.particles >= STATED_COUNT);
  const at = (particles: number) => `2^${Math.log2(particles)}`;
  const frameRatio = (s: (typeof sizes)[number]) => s.full.medianMs / (s.step as CaseResult).medianMs;
  const tenthRatio = (s: (typeof sizes)[number]) => (s.tenth as CaseResult).medianMs / s.full.medianMs;
  if (paired)
    return pairedEmitterTargets(paired, top?.step ? frameRatio(top) : null, top?.tenth ? tenthRatio(top) : null);
  // Judged from the cases alone: the other sizes and the spread pool quoted after.
  const alsoFrame = others.filter((s) => s.step).map((s) => `${at(s.full.particles)}: ${frameRatio(s).toFixed(2)}x`);
  const alsoTenth = others.filter((s) => s.tenth).map((s) => `${at(s.full.particles)}: ${tenthRatio(s).toFixed(3)}`);
  const spreadRatio = (s: (typeof sizes)[number]) => (s.spreadTenth as CaseResult).medianMs / s.full.medianMs;
  const spread = top?.spreadTenth ? `; spread over the pool (once full): ${spreadRatio(top).toFixed(3)}` : '';
  return [
    top?.step
      ? {
          target: FRAME_TARGET,
          met: judged ? frameRatio(top) <= 2.5 : null,
          figure:
            `at ${at(top.full.particles)}: ${top.full.medianMs.toFixed(2)} ms a frame / ` +
            `${top.step.medianMs.toFixed(2)} ms a step = ${frameRatio(top).toFixed(2)}x (timed apart)` +
            (alsoFrame.length > 0 ? `; ${alsoFrame.join(', ')}` : ''),
          applies: true,
        }
      : notMeasured(FRAME_TARGET),
    top?.tenth
      ? {
          target: TENTH_TARGET,
          met: judged ? tenthRatio(top) <= 0.2 : null,
          figure:
            `at ${at(top.full.particles)}: ${top.tenth.medianMs.toFixed(2)} ms / ${top.full.medianMs.toFixed(2)} ms = ` +
            `${tenthRatio(top).toFixed(3)}` +
            (alsoTenth.length > 0 ? `; ${alsoTenth.join(', ')}` : '') +
            spread,
          applies: true,
        }
      : notMeasured(TENTH_TARGET),
  ];
}

/**
 * The emitter targets judged from the alternating rounds, at their size (not
 * judged below 2^20); `fromFrame` and `fromTenth`, the cases' figures at the
 * size the targets are judged at (timed apart), quoted after.
 */
function pairedEmitterTargets(
  paired: EmitterRatioResult,
  fromFrame: number | null,
  fromTenth: number | null,
): Target[] {
  const full = paired.pools.find((p) => p.fraction === 1 && !p.fountain);
  const judged = paired.count >= STATED_COUNT;
  const head = `at 2^${Math.log2(paired.count)}, median of ${paired.rounds} alternating rounds`;
  const apart = (x: number | null, digits: number, unit = '') =>
    x === null ? '' : `; from the cases, timed apart: ${x.toFixed(digits)}${unit}`;
  const frame = full?.overStep.ratio;
  return [
    full && frame !== undefined
      ? {
          target: FRAME_TARGET,
          met: judged ? frame <= 2.5 : null,
          figure:
            `${head}: ${full.ms.toFixed(2)} ms a frame / ${paired.stepMs.toFixed(2)} ms a step = ${frame.toFixed(2)}x ` +
            `(fastest rounds ${full.overStep.fastestRatio.toFixed(2)}x)` +
            apart(fromFrame, 2, 'x'),
          applies: true,
        }
      : notMeasured(FRAME_TARGET),
    {
      target: TENTH_TARGET,
      met: judged ? paired.tenthOverFull.ratio <= 0.2 : null,
      figure:
        `${head}: ${paired.tenthOverFull.ratio.toFixed(3)} (fastest rounds ${paired.tenthOverFull.fastestRatio.toFixed(3)}); ` +
        `spread over the pool (once full): ${paired.spreadOverFull.ratio.toFixed(3)}` +
        apart(fromTenth, 3),
      applies: true,
    },
  ];
}
