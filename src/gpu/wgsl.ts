/**
 * The one door through which WGSL enters: each shader file is imported raw
 * (Vite's `?raw`, which Vitest and vite-node also understand) and composed by
 * plain concatenation with the generated particle declarations.
 */
import { wgslParticleStruct } from '../core/layout';
import dispatch from '../../shaders/dispatch.wgsl?raw';
import integrate from '../../shaders/integrate.wgsl?raw';
import scatter from '../../shaders/scatter.wgsl?raw';

/** A per-particle pass: layout declarations, the shared dispatch helper, then the pass. */
function perParticle(pass: string): string {
  return [wgslParticleStruct(), dispatch, pass].join('\n');
}

export const shaders = {
  integrate: () => perParticle(integrate),
  scatter: () => perParticle(scatter),
} as const;
