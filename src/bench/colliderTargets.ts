/**
 * The speed issue's collider targets (items 1 and 4): step + one plane and
 * gravity + drag + plane against the plain step at 2^20 (statedSizeOf),
 * judged from the alternating rounds (run.colliderRatio, measured there) when
 * there are any, else from the cases, timed apart; and the bytes each moves a
 * particle-step.
 */
import { DEFAULT_STEP, DEFAULT_TAIL, findCase } from './caseLookup';
import { STATED_COUNT, statedSizeOf, type BenchRun } from './results';
import { BYTES, totalBytes } from './roofline';
import { notMeasured, type Target } from './target';

export function colliderTargets(run: BenchRun): Target[] {
  const out: Target[] = [];
  const limits = [
    { name: 'step+plane', caseName: 'collisions-plane', limit: 1.3, target: 'step + one plane collider' },
    { name: 'gravity+drag+plane', caseName: 'collisions-plane-typical', limit: 1.5, target: 'gravity + drag + plane' },
  ];
  const paired = run.colliderRatio ?? null;
  // Beside the target's inelastic, frictionless plane (older JSON has no such case).
  const bouncing = paired?.cases.find((c) => c.name === 'step+bouncing plane');
  for (const { name, caseName, limit, target } of limits) {
    const label = `${target} <= ${limit}x the step, at 2^20`;
    const timed = paired?.cases.find((c) => c.name === name);
    const own = run.cases.filter((c) => c.name === caseName);
    const stated = own.find((c) => c.particles === statedSizeOf(own.map((o) => o.particles)));
    const step = stated ? findCase(run.cases, DEFAULT_STEP, stated.particles) : undefined;
    const fromCases = stated && step ? stated.medianMs / step.medianMs : null;
    const count = paired && timed ? paired.count : (stated?.particles ?? 0);
    const ratio = timed ? timed.ratio : fromCases;
    if (ratio === null) {
      out.push(notMeasured(label));
      continue;
    }
    out.push({
      target: label,
      met: count >= STATED_COUNT ? ratio <= limit : null,
      figure:
        `at 2^${Math.log2(count)}` +
        (timed
          ? `, median of ${timed.ratios.length} alternating rounds: ${timed.ratio.toFixed(2)}x the step ` +
            `(fastest rounds ${timed.fastestRatio.toFixed(2)}x)`
          : `: ${ratio.toFixed(2)}x the step`) +
        (timed && fromCases !== null ? `; from the cases, timed apart: ${fromCases.toFixed(2)}x` : '') +
        (bouncing && name === 'step+plane'
          ? `; the plane bouncing with friction (restitution 0.5, friction 0.2): ${bouncing.ratio.toFixed(2)}x`
          : ''),
      applies: true,
    });
  }
  // The bytes: under registry gravity (every acceleration, and radius, +0) the step skips the
  // acceleration|radius lane; the cases check the system chose so, and their JSON counts it.
  const bytesOf = (name: string, fallback: number) => {
    const measured = run.cases.filter((c) => c.name === name);
    return measured.length > 0 ? Math.max(...measured.map((c) => c.bytesPerParticleStep)) : fallback;
  };
  const step = totalBytes(BYTES.step);
  const gravityStep = bytesOf(`step-registry-gravity/${DEFAULT_TAIL}`, totalBytes(BYTES.stepWithoutAccelerationLane));
  out.push({
    target: 'the plain step moves <= 64 B a particle-step (under registry gravity)',
    met: gravityStep <= 64,
    figure:
      `${gravityStep} B under registry gravity (step-registry-gravity: position and velocity lanes in and out); ` +
      `${step} B with each particle's own acceleration (${BYTES.step.read} read: position, velocity, ` +
      `acceleration|radius lanes; ${BYTES.step.written} written); the force accumulator skipped once a step has cleared it`,
    applies: true,
  });
  const plane = totalBytes(BYTES.stepPlane);
  const gravityPlane = bytesOf('collisions-plane-typical', totalBytes(BYTES.stepPlaneWithoutAccelerationLane));
  out.push({
    target: 'step + fused plane collider moves no more than the plain step',
    met: gravityPlane <= gravityStep && plane <= step,
    figure:
      `under registry gravity ${gravityPlane} B against ${gravityStep} B (collisions-plane-typical); ` +
      `with each particle's own acceleration ${plane} B against ${step} B ` +
      `(separately: ${totalBytes(BYTES.stepPlaneSeparate)} B)`,
    applies: true,
  });
  return out;
}
