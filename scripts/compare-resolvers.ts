/**
 * `npx vite-node scripts/compare-resolvers.ts`: how far the GPU's Jacobi
 * contact resolution (its CPU twin in float64, so only the algorithms differ)
 * lands from Cyclone's sequential resolver run to convergence, after one step
 * from the same state, for each iteration count; and how far Cyclone's own
 * default (twice as many iterations as contacts) lands. The README's table
 * comes from this.
 */
import { compareResolvers, RESOLVER_SCENES } from '../test/support/resolverScenes';

const iterations = [1, 4, 8, 16, 32, 64];
const cell = (v: number, p: number) => `${v.toExponential(0)} m/s, ${p.toExponential(0)} m`;
console.log("Largest difference from Cyclone's resolver run to convergence, after one step from the same state:");
console.log(
  `| scene | contacts | Cyclone's iterations (it stops on its own, or at 10,000) | Cyclone, 2 x contacts | ${iterations.map((k) => `K = ${k}`).join(' | ')} |`,
);
for (const scene of RESOLVER_SCENES) {
  const rows = compareResolvers(scene, iterations);
  const first = rows[0]!;
  console.log(
    `| ${scene.name} | ${first.contacts} | ${first.cycloneIterations} | ${cell(first.cycloneDefaultVelocity, first.cycloneDefaultPosition)} | ` +
      rows.map((r) => cell(r.velocity, r.position)).join(' | ') +
      ' |',
  );
}
const left = (r: { closing: number; penetration: number }) =>
  `${r.closing.toExponential(0)} m/s, ${r.penetration.toExponential(0)} m`;
console.log('\nWhat each leaves unresolved after the step (largest closing speed, deepest penetration):');
console.log(
  `| scene | Cyclone, converged | Cyclone, 2 x contacts | ${iterations.map((k) => `K = ${k}`).join(' | ')} |`,
);
for (const scene of RESOLVER_SCENES) {
  const rows = compareResolvers(scene, iterations);
  const first = rows[0]!;
  console.log(
    `| ${scene.name} | ${left(first.cycloneResidual)} | ${left(first.cycloneDefaultResidual)} | ` +
      rows.map((r) => left(r.jacobiResidual)).join(' | ') +
      ' |',
  );
}
