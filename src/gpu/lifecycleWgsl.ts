/**
 * The lifecycle passes' WGSL, composed as src/gpu/wgsl.ts composes the
 * step's: each file imported raw and concatenated after the generated
 * declarations it needs (the particle struct and accessors, the life record,
 * the lifecycle records, the argument offsets, the draw indices).
 */
import { DEAD_RADIUS } from '../core/collisions/colliders';
import { wgslLifecycleRecords } from '../core/emitters/gpuRecords';
import { wgslDrawConstants } from '../core/emitters/random';
import { NO_RULE, wgslLifeStruct, wgslParticleStruct } from '../core/layout';
import age from '../../shaders/age.wgsl?raw';
import compact from '../../shaders/compact.wgsl?raw';
import dispatch from '../../shaders/dispatch.wgsl?raw';
import emit from '../../shaders/emit.wgsl?raw';
import lifePlan from '../../shaders/lifePlan.wgsl?raw';
import lifeScan from '../../shaders/lifeScan.wgsl?raw';
import pcg from '../../shaders/pcg.wgsl?raw';
import spawn from '../../shaders/spawn.wgsl?raw';

/** Word offsets in the indirect-arguments buffer (src/gpu/lifeBuffers.ts). */
export const ARGS = {
  /** Dispatch over the live list: forces, step, age, compaction. */
  live: 0,
  /** Dispatch of the emission. */
  emit: 4,
  /** drawIndirect: 6 vertices a live particle, one instance (vertex pulling). */
  drawQuads: 8,
  /** drawIndirect: 6 vertices, one instance a live particle. */
  drawInstanced: 12,
  /** drawIndirect: one point a live particle. */
  drawPoints: 16,
  /** Dispatch of scan level l at scan + 4 * l. */
  scan: 20,
} as const;

function wgslArgs(): string {
  const snake = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase();
  return Object.entries(ARGS)
    .map(([name, at]) => `const ARGS_${snake(name)}: u32 = ${at}u;`)
    .join('\n');
}

/** Everything a pass over particles and life records needs first. */
function lifeHeader(): string {
  return [
    wgslParticleStruct(),
    wgslLifeStruct(),
    wgslLifecycleRecords(),
    `const NO_RULE: u32 = ${NO_RULE}u;`,
    `const DEAD_RADIUS: f32 = ${DEAD_RADIUS.toFixed(1)};`,
  ].join('\n');
}

export const lifecycleShaders = {
  age: () => [lifeHeader(), dispatch, age].join('\n'),
  compact: () => [lifeHeader(), dispatch, compact].join('\n'),
  emit: () => [lifeHeader(), dispatch, pcg, wgslDrawConstants(), spawn, emit].join('\n'),
  scan: () => [wgslLifecycleRecords(), lifeScan].join('\n'),
  plan: () => [wgslLifecycleRecords(), wgslArgs(), lifePlan].join('\n'),
} as const;
