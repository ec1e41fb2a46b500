/**
 * The bench's door for WGSL, beside src/gpu/wgsl.ts and built the same way:
 * each file imported raw and composed by plain concatenation with the shared
 * pieces (the generated particle declarations, shaders/dispatch.wgsl). Kept
 * apart so the library's bundle never carries bench-only shaders.
 */
import { wgslParticleStruct } from '../core/layout';
import dispatch from '../../shaders/dispatch.wgsl?raw';
import copy from '../../shaders/copy.wgsl?raw';
import stepMath from '../../shaders/bench/stepMath.wgsl?raw';
import integrateSoA from '../../shaders/bench/integrateSoA.wgsl?raw';
import integrateUniformAcceleration from '../../shaders/bench/integrateUniformAcceleration.wgsl?raw';

export const benchShaders = {
  copy: () => [dispatch, copy].join('\n'),
  integrateSoA: () => [dispatch, stepMath, integrateSoA].join('\n'),
  integrateUniformAcceleration: () =>
    [wgslParticleStruct(), dispatch, stepMath, integrateUniformAcceleration].join('\n'),
} as const;
