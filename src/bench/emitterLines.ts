/**
 * The summary's lines about the emitter cases: one a case (its live count
 * against the target, its churn, its frame against the 100% frame and the
 * step), and the alternating rounds' fountains against their pools.
 */
import { DEFAULT_STEP, findCase, poolAt } from './caseLookup';
import type { EmitterRatioResult } from './emitterRatio';
import { LIVE_TOLERANCE } from './emitters';
import type { CaseResult } from './results';

/**
 * One line an emitter case: the live count reached against the target, the
 * churn, and its frame against the 100% frame and the step at the same count;
 * a fountain's also against the pool without its forces and plane, at the
 * same fraction, and its collision events.
 */
export function emitterLines(cases: readonly CaseResult[]): string[] {
  const count = (x: number) => Math.round(x).toLocaleString('en-US');
  return cases.flatMap((c) => {
    const l = c.lifecycle;
    if (!l) return [];
    const full = poolAt(cases, c.particles, 1);
    const pool = l.fountain ? poolAt(cases, c.particles, l.targetFraction) : undefined;
    const step = findCase(cases, DEFAULT_STEP, c.particles);
    const against = [
      pool ? `${(c.medianMs / pool.medianMs).toFixed(2)}x the frame without the forces and plane (${pool.name})` : '',
      full && full !== c && !l.fountain ? `${(c.medianMs / full.medianMs).toFixed(3)} of the 100% frame` : '',
      step ? `${(c.medianMs / step.medianMs).toFixed(2)}x the step's ${step.medianMs.toFixed(2)} ms` : '',
    ].filter((part) => part !== '');
    const hits = l.fountain ? `, ${count(l.fountain.hitsPerStep)} collision events` : '';
    const off = Math.abs(l.liveError) > LIVE_TOLERANCE ? ` OFF TARGET (over ${LIVE_TOLERANCE * 100}%)` : '';
    return [
      `${c.name} @ 2^${Math.log2(c.particles)}: live ${count(l.liveBeforeTiming)} before timing ` +
        `(target ${count(l.targetLive)}, ${(l.liveError * 100).toFixed(2)}%${off}), ` +
        `${count(l.liveAfterTiming)} after; ` +
        `a step: ${count(l.birthsPerStep)} born, ${count(l.deathsPerStep)} died, ${count(l.shortfallPerStep)} short${hits}; ` +
        `frame ${c.medianMs.toFixed(2)} ms${against.length > 0 ? ` = ${against.join(', ')}` : ''}`,
    ];
  });
}

/** The alternating rounds' fountains against the pools without them. */
export function emitterRatioLines(paired: EmitterRatioResult): string[] {
  const at = `@ 2^${Math.log2(paired.count)}`;
  return paired.fountainOverPool.map((f) => {
    const pool = paired.pools.find((p) => p.name === f.name);
    const events = pool ? `, ${Math.round(pool.counts.hits).toLocaleString('en-US')} collision events a frame` : '';
    return (
      `${f.name} vs the pool without its forces and plane ${at}: ${f.ratio.toFixed(2)}x, median of ` +
      `${f.ratios.length} alternating rounds (${pool ? `${pool.ms.toFixed(2)} ms a frame, ` : ''}` +
      `${pool ? pool.overStep.ratio.toFixed(2) : '?'}x the plain step${events})`
    );
  });
}
