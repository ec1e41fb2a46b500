/**
 * The composition of a collider set: each collider's kind, inside flag, kill
 * flag, whether it bounces (restitution > 0) and has friction, and a plane's
 * normal when it is an axis, in order. The step with the colliders fused
 * into it (shaders/collisions/fusedColliders.wgsl) is compiled for one composition, each
 * collider's own code and nothing else (no loop over the table, no per-kind
 * selects), and reads the parameters (centres, normals, sizes, restitution,
 * friction) from the table, so moving or resizing a collider changes a
 * buffer, not the pipeline; only a restitution or friction that becomes or
 * stops being 0 (a contact without either skips the resting-contact test or
 * the friction's square root and division), or a plane turned onto or off an
 * axis, changes the composition. No GPU imports.
 */
import { COLLIDER, FLAG_INSIDE, FLAG_KILL, KIND_BOX, KIND_PLANE, KIND_SPHERE, type PackedColliders } from './colliders';

export interface ColliderPart {
  kind: 'plane' | 'sphere' | 'box';
  inside: boolean;
  kill: boolean;
  /** Restitution > 0: with 0 (packed as +0) the resting-contact test cannot change it. */
  bounce: boolean;
  /** Friction > 0: with 0 nothing slows the tangential velocity. */
  friction: boolean;
  /**
   * A plane whose unit normal is an axis, +x to -z (one component +-1, the
   * others +0): written into the fused step as a constant; null for any
   * other normal and for spheres and boxes.
   */
  normal: readonly [number, number, number] | null;
}

export type ColliderComposition = readonly ColliderPart[];

const KINDS = { [KIND_PLANE]: 'plane', [KIND_SPHERE]: 'sphere', [KIND_BOX]: 'box' } as const;

/** The composition of packed colliders (already validated). */
export function colliderComposition(colliders: PackedColliders): ColliderComposition {
  const kind = COLLIDER.wordOffsets.kind;
  const flags = COLLIDER.wordOffsets.flags;
  return Array.from({ length: colliders.count }, (_, i) => {
    const base = i * COLLIDER.words;
    const word = colliders.words[base + flags] as number;
    const part = KINDS[colliders.words[base + kind] as number as keyof typeof KINDS];
    return {
      kind: part,
      inside: (word & FLAG_INSIDE) !== 0,
      kill: (word & FLAG_KILL) !== 0,
      bounce: colliders.get(i, 'restitution') > 0,
      friction: colliders.get(i, 'friction') > 0,
      normal: part === 'plane' ? axisNormal([0, 1, 2].map((c) => colliders.get(i, 'axis0', c))) : null,
    };
  });
}

/** `normal` when it is an axis (one component +-1, the others +0), else null. */
function axisNormal(normal: number[]): [number, number, number] | null {
  const ones = normal.filter((x) => x === 1 || x === -1).length;
  const zeros = normal.filter((x) => Object.is(x, 0)).length;
  return ones === 1 && zeros === 2 ? (normal as [number, number, number]) : null;
}

/** Names a composition, e.g. `plane(0,1,0),sphere-inside-bounce,box-kill-friction`: one pipeline a key. */
export function colliderCompositionKey(composition: ColliderComposition): string {
  return composition
    .map(
      ({ kind, inside, kill, bounce, friction, normal }) =>
        kind +
        (normal ? `(${normal.join(',')})` : '') +
        (inside ? '-inside' : '') +
        (kill ? '-kill' : '') +
        (bounce ? '-bounce' : '') +
        (friction ? '-friction' : ''),
    )
    .join(',');
}

/**
 * `worldColliders` of shaders/collisions/fusedColliders.wgsl for `composition`: each
 * collider's function in order, with its table index and its inside, kill,
 * bounce and friction flags written in as constants; true when a kill collider touched the particle
 * (the colliders after it are not tested, as the colliders pass breaks out).
 */
export function wgslWorldColliders(composition: ColliderComposition): string {
  const calls = composition.map(({ kind, inside, kill, bounce, friction, normal }, i) => {
    const c = `colliders[${i}u]`;
    // No collider of a fused set sticks (src/gpu/collisions/collisions.ts fuses only such sets).
    const flags = `${kind === 'plane' ? '' : `${inside}, `}${kill}, false, ${bounce}, ${friction}`;
    const call =
      kind === 'plane'
        ? `planeCollider(${c}, ${normal ? `vec3f(${normal.map((x) => x.toFixed(1)).join(', ')})` : `${c}.axis0`}, p, v, a, r, SKIN, dt, ${flags})`
        : `${kind}Collider(${c}, p, v, a, r, SKIN, dt, ${flags})`;
    return `  if (${call}) { return true; }`;
  });
  return [
    `// Generated from src/core/collisions/colliderComposition.ts: ${colliderCompositionKey(composition) || 'none'}`,
    `const COLLIDER_COUNT: u32 = ${Math.max(1, composition.length)}u;`,
    'fn worldColliders(p: ptr<function, vec3f>, v: ptr<function, vec3f>, a: vec3f, r: f32, dt: f32) -> bool {',
    ...calls,
    '  return false;',
    '}',
  ].join('\n');
}
