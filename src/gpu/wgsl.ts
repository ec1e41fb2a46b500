/**
 * The one door through which WGSL enters: each shader file is imported raw
 * (Vite's `?raw`, which Vitest and vite-node also understand) and composed by
 * plain concatenation with the generated declarations (the particle layout,
 * the force records, the turbulence modes); the one substitution is the fused
 * step's bind group index (`forcesInGroup`).
 */
import { wgslLifecycleRecords } from '../core/emitters/gpuRecords';
import { wgslForceDeclarations, wgslRegisteredForces, type ForceComposition } from '../core/forces/records';
import { wgslTurbulenceField } from '../core/forces/turbulence';
import { wgslParticleStruct } from '../core/layout';
import dispatch from '../../shaders/dispatch.wgsl?raw';
import forceGenerators from '../../shaders/forceGenerators.wgsl?raw';
import forces from '../../shaders/forces.wgsl?raw';
import integrate from '../../shaders/integrate.wgsl?raw';
import integrateForces from '../../shaders/integrateForces.wgsl?raw';
import liveDispatch from '../../shaders/liveDispatch.wgsl?raw';
import noFieldForces from '../../shaders/noFieldForces.wgsl?raw';
import scatter from '../../shaders/scatter.wgsl?raw';
import springs from '../../shaders/springs.wgsl?raw';
import turbulence from '../../shaders/turbulence.wgsl?raw';

/** A per-particle pass: layout declarations, the shared dispatch helper, then the pass. */
function perParticle(pass: string): string {
  return [wgslParticleStruct(), dispatch, pass].join('\n');
}

/**
 * The same pass over the live list of a system with emitters: the live-list
 * helper (shaders/liveDispatch.wgsl) in the dispatch helper's place, the pass
 * itself unchanged (src/gpu/lifecycle.ts).
 */
function perLiveParticle(pass: string): string {
  return [wgslParticleStruct(), wgslLifecycleRecords(), liveDispatch, pass].join('\n');
}

/** The generators of one composition: the records' declarations, the turbulence field, the generators, then `registeredForces`. */
function fieldForces(composition: ForceComposition): string {
  return [
    wgslForceDeclarations(),
    turbulence,
    wgslTurbulenceField(),
    forceGenerators,
    wgslRegisteredForces(composition),
  ].join('\n');
}

/**
 * shaders/integrateForces.wgsl with its bindings in bind group `group`: the
 * group after the step's own (2 over every slot, 3 over the live list, whose
 * lists take group 2). The file writes the index as FORCES_GROUP.
 */
function forcesInGroup(group: number): string {
  return integrateForces.replaceAll('@group(FORCES_GROUP)', `@group(${group})`);
}

export const shaders = {
  integrate: () => perParticle([noFieldForces, integrate].join('\n')),
  /** The step with the composition's field forces fused in (shaders/integrateForces.wgsl), their bindings in `group`. */
  integrateWithForces: (composition: ForceComposition, group: number) =>
    perParticle([fieldForces(composition), forcesInGroup(group), integrate].join('\n')),
  scatter: () => perParticle(scatter),
  forces: (composition: ForceComposition) => perParticle([fieldForces(composition), forces].join('\n')),
  springs: () => perParticle(springs),
  /** The step and the field forces over the live list (systems with emitters). */
  integrateLive: () => perLiveParticle([noFieldForces, integrate].join('\n')),
  /** The same over the live list; the live list takes group 2, so the forces take `group` (3). */
  integrateLiveWithForces: (composition: ForceComposition, group: number) =>
    perLiveParticle([fieldForces(composition), forcesInGroup(group), integrate].join('\n')),
  forcesLive: (composition: ForceComposition) => perLiveParticle([fieldForces(composition), forces].join('\n')),
} as const;
