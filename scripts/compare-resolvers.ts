/**
 * `npx vite-node scripts/compare-resolvers.ts`: how far the GPU's Jacobi
 * contact resolution (its CPU twin in float64, so the arithmetic is not what
 * differs) lands from Cyclone's sequential resolver, after one step from the
 * same state, for each iteration count; and how far Cyclone's own default
 * (twice as many iterations as contacts) lands. docs/collisions.md's tables
 * come from this.
 *
 * Cyclone's side is src/core/collisions/sequential.ts given Cyclone's contact
 * generation: a cable is a contact once `length >= maxLength`, which
 * generateContacts (`penetration > -skin`) gives with the smallest positive
 * skin (CYCLONE_SKIN), not the library's 1e-4, which adds nearly taut cables
 * Cyclone never generates. Its warm-up to the compared state runs the same way.
 * The Jacobi side runs as a system does by default (skin 1e-4). What each
 * leaves unresolved is judged by Cyclone's test too (touching or penetrating).
 */
import { CYCLONE_SKIN, compareResolvers, RESOLVER_SCENES, type ComparisonSkins } from '../test/support/resolverScenes';

const skins: ComparisonSkins = { cyclone: CYCLONE_SKIN, jacobi: 1e-4, residual: CYCLONE_SKIN };
const iterations = [1, 4, 8, 16, 32, 64];
const K = iterations.map((k) => `K = ${k}`).join(' | ');
/** One significant digit: `0.2`, `1`, or `8e-5` below 0.01. */
const number = (x: number) => (x === 0 ? '0' : x >= 0.01 ? String(Number(x.toPrecision(1))) : x.toExponential(0));
const pair = (v: number, p: number) => `${number(v)} m/s, ${number(p)} m`;
const results = RESOLVER_SCENES.map((scene) => ({ scene, rows: compareResolvers(scene, iterations, skins) }));

console.log(
  `Skins: Cyclone's contacts ${skins.cyclone} (length >= maxLength), Jacobi ${skins.jacobi}, unresolved judged at ${skins.residual}.`,
);
console.log(
  "\nLargest velocity and position difference from Cyclone's resolver run to convergence, one step from the same state:",
);
console.log(`| scene (contacts) | Cyclone stops after | Cyclone, 2 x contacts | ${K} |`);
for (const { scene, rows } of results) {
  const first = rows[0]!;
  const converged = first.cycloneIterations >= 10_000 ? 'never (10,000 run)' : String(first.cycloneIterations);
  console.log(
    `| ${scene.name} (${first.contacts}) | ${converged} | ${pair(first.cycloneDefaultVelocity, first.cycloneDefaultPosition)} | ` +
      rows.map((r) => pair(r.velocity, r.position)).join(' | ') +
      ' |',
  );
}

console.log('\nWhat each leaves unresolved after the step (largest closing speed, deepest penetration):');
console.log(`| scene | Cyclone, converged | Cyclone, 2 x contacts | ${K} |`);
for (const { scene, rows } of results) {
  const first = rows[0]!;
  const left = (r: { closing: number; penetration: number }) => pair(r.closing, r.penetration);
  console.log(
    `| ${scene.name} | ${left(first.cycloneResidual)} | ${left(first.cycloneDefaultResidual)} | ` +
      rows.map((r) => left(r.jacobiResidual)).join(' | ') +
      ' |',
  );
}

console.log(
  "\nK iterations against Cyclone's default: closing speed and penetration left, as a change from Cyclone's (+: more left):",
);
console.log(`| scene | ${K} |`);
for (const { scene, rows } of results) {
  const cyclone = rows[0]!.cycloneDefaultResidual;
  const change = (mine: number, theirs: number) =>
    theirs === 0
      ? mine === 0
        ? '0'
        : `+${number(mine)} (Cyclone 0)`
      : `${mine >= theirs ? '+' : ''}${Math.round((mine / theirs - 1) * 100)}%`;
  console.log(
    `| ${scene.name} | ` +
      rows
        .map(
          (r) =>
            `${change(r.jacobiResidual.closing, cyclone.closing)}, ${change(r.jacobiResidual.penetration, cyclone.penetration)}`,
        )
        .join(' | ') +
      ' |',
  );
}
