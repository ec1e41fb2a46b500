/**
 * The one door through which WGSL enters: each shader file is imported raw
 * (Vite's `?raw`, which Vitest and vite-node also understand) and composed by
 * plain concatenation with the generated particle declarations.
 */
import { wgslForceDeclarations, wgslRegisteredForces, type ForceComposition } from '../core/forces/records';
import { wgslParticleStruct } from '../core/layout';
import dispatch from '../../shaders/dispatch.wgsl?raw';
import forces from '../../shaders/forces.wgsl?raw';
import integrate from '../../shaders/integrate.wgsl?raw';
import noise from '../../shaders/noise.wgsl?raw';
import scatter from '../../shaders/scatter.wgsl?raw';
import springs from '../../shaders/springs.wgsl?raw';

/** A per-particle pass: layout declarations, the shared dispatch helper, then the pass. */
function perParticle(pass: string): string {
  return [wgslParticleStruct(), dispatch, pass].join('\n');
}

export const shaders = {
  integrate: () => perParticle(integrate),
  scatter: () => perParticle(scatter),
  // The records' declarations and the curl noise first; `registeredForces` for the composition last.
  forces: (composition: ForceComposition) =>
    perParticle([wgslForceDeclarations(), noise, forces, wgslRegisteredForces(composition)].join('\n')),
  springs: () => perParticle(springs),
} as const;
