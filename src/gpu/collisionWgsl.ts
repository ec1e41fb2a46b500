/**
 * The collision passes' WGSL, composed exactly as src/gpu/wgsl.ts composes
 * the step's: each file imported raw and concatenated after the generated
 * declarations it needs (the particle struct and accessors, the shared
 * dispatch helper, the generated collider and link records).
 */
import { wgslParticleStruct } from '../core/layout';
import { wgslColliderStruct } from '../core/collisions/colliders';
import { wgslLinkStruct } from '../core/collisions/links';
import dispatch from '../../shaders/dispatch.wgsl?raw';
import collide from '../../shaders/collide.wgsl?raw';
import grid from '../../shaders/grid.wgsl?raw';
import gridHash from '../../shaders/gridHash.wgsl?raw';
import scan from '../../shaders/scan.wgsl?raw';
import contacts from '../../shaders/contacts.wgsl?raw';

export const collisionShaders = {
  collide: () => [wgslParticleStruct(), dispatch, wgslColliderStruct(), collide].join('\n'),
  grid: () => [wgslParticleStruct(), dispatch, gridHash, grid].join('\n'),
  scan: () => scan,
  contacts: () => [wgslParticleStruct(), dispatch, wgslLinkStruct(), gridHash, contacts].join('\n'),
} as const;
