/**
 * The GPU's contact resolution (Jacobi iterations with mass splitting, run
 * here through its CPU twin in float64 so that only the algorithm differs)
 * against a sequential resolver (worst contact first, as Cyclone's) with the
 * same 1e-4 skin, after one step from the same state: the claims of
 * docs/collisions.md's comparison, checked. (With Cyclone's own contact
 * generation, skin Number.MIN_VALUE: test/cycloneClaims.test.ts.)
 * `npx vite-node scripts/compare-resolvers.ts` prints the full table.
 */
import { describe, expect, it } from 'vitest';
import { RESOLVER_SCENES, compareResolvers } from './support/resolverScenes';

describe('Jacobi iterations against a sequential resolver (Cyclone’s order, skin 1e-4)', () => {
  it("Newton's cradle: the same velocities as Cyclone from 4 iterations (one per contact down the row)", () => {
    const cradle = RESOLVER_SCENES.find((scene) => scene.name.startsWith("Newton's cradle"))!;
    const rows = compareResolvers(cradle, [1, 2, 3, 4, 8, 64]);
    // Fewer iterations than contacts: the momentum has not reached the last ball.
    for (const row of rows.slice(0, 3)) expect(row.velocity).toBeGreaterThan(0.5);
    // Then it is Cyclone's result: a chain of single impacts is resolved in the
    // same order whichever resolver runs it (float64 here: exact).
    for (const row of rows.slice(3)) expect(row.velocity).toBeLessThanOrEqual(1e-12);
  });

  it.each(RESOLVER_SCENES.map((scene) => [scene.name, scene] as const))(
    '%s: 32 iterations leave no more unresolved than Cyclone’s default (twice the contacts), and more iterations leave less',
    (_, scene) => {
      const [eight, sixteen, thirtyTwo] = compareResolvers(scene, [8, 16, 32]);
      const cyclone = thirtyTwo!.cycloneDefaultResidual;
      // "Unresolved": the largest closing speed and the deepest penetration
      // among the contacts of the state the resolver leaves (regenerated, so a
      // contact a resolver never saw counts too).
      expect(thirtyTwo!.jacobiResidual.closing).toBeLessThanOrEqual(cyclone.closing + 1e-12);
      expect(thirtyTwo!.jacobiResidual.penetration).toBeLessThanOrEqual(cyclone.penetration + 1e-12);
      expect(thirtyTwo!.jacobiResidual.closing).toBeLessThanOrEqual(eight!.jacobiResidual.closing + 1e-12);
      expect(thirtyTwo!.jacobiResidual.penetration).toBeLessThanOrEqual(sixteen!.jacobiResidual.penetration + 1e-12);
    },
  );
});
