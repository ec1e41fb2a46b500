/**
 * Every compute pass's uniform parameter block, declared once with the
 * schema (src/core/schema.ts): the WGSL struct each shader reads is printed
 * from here by the shader door, and each pass writes its block by field name
 * (`block.set('dt', dt)`), never by a counted word offset.
 */
import { defineStruct } from '../core/schema';

/** shaders/step/integrate.wgsl (and the live-list step). */
export const STEP_PARAMS = defineStruct('StepParams', {
  dt: { type: 'f32', doc: 'seconds, > 0' },
  count: { type: 'u32', doc: 'particles (or slots) the dispatch covers' },
  forceAccumulator: { type: 'u32', doc: '0 when no force accumulator can hold a force: neither read nor cleared' },
});

/** shaders/collisions/collide.wgsl. */
export const COLLIDE_PARAMS = defineStruct('CollideParams', {
  count: 'u32',
  colliderCount: 'u32',
  dt: 'f32',
  // A contact exists from `skin` before touching: its velocity is resolved (so a
  // resting particle stays at rest through rounding), its position only once it penetrates.
  skin: { type: 'f32', doc: 'a contact exists from skin before touching' },
  positionCopy: {
    type: 'u32',
    doc: "where the contact resolver's position copy starts in deltas, in vec4 (0: none); applying deltas updates it",
  },
});

/** shaders/collisions/contacts.wgsl. */
export const CONTACT_PARAMS = defineStruct('ContactParams', {
  count: 'u32',
  bucketMask: 'u32',
  inverseCellSize: 'f32',
  pairs: { type: 'u32', doc: '1: particle-particle contacts through the grid' },
  dt: 'f32',
  skin: 'f32',
  restitution: { type: 'f32', doc: 'of particle-particle contacts' },
  linkRefs: { type: 'u32', doc: 'where the link indices start in linkIndex (after the starts)' },
  capacity: { type: 'u32', doc: 'the particle capacity: where the candidate lists start in activeCounts' },
  margin: { type: 'f32', doc: 'how far past the reach a wide list reaches (0: lists not kept across iterations)' },
  iteration: { type: 'u32', doc: 'the Jacobi iteration since the candidate lists were made (0: the first)' },
  positionCopy: {
    type: 'u32',
    doc: 'where the position copy starts in deltas, in vec4 (ContactPass.positionCopy; 0: none)',
  },
});

/** shaders/collisions/grid.wgsl. */
export const GRID_PARAMS = defineStruct('GridParams', {
  count: 'u32',
  bucketMask: 'u32',
  inverseCellSize: 'f32',
  bucketCount: 'u32',
});

/** shaders/shared/scatter.wgsl. */
export const SCATTER_PARAMS = defineStruct('ScatterParams', {
  start: 'u32',
  count: 'u32',
  lane: 'u32',
  mask: { type: 'vec4u', doc: '1 where the attribute has a component' },
});

/** shaders/forces/springs.wgsl: the particles with springs. */
export const SPRING_PARAMS = defineStruct('SpringParams', {
  first: { type: 'u32', doc: 'the first particle with a spring' },
  count: { type: 'u32', doc: 'particles from first to the last one with a spring' },
});

/** shaders/forces/springs.wgsl: one pair spring's record (a storage array of them). */
export const SPRING_LINK = defineStruct('SpringLink', {
  restLength: 'f32',
  stiffness: 'f32',
  bungee: { type: 'u32', doc: '1: pulls only' },
  spare: 'u32',
});

/** shaders/lifecycle/lifeScan.wgsl: which level of the scan a dispatch works on. */
export const SCAN_LEVEL = defineStruct('ScanLevel', {
  level: 'u32',
});

/** shaders/bench/copy.wgsl (the benchmark's copy-kernel roofline). */
export const COPY_PARAMS = defineStruct('CopyParams', {
  invocations: 'u32',
});

/** shaders/bench/integrateUniformAcceleration.wgsl: one acceleration for every particle. */
export const UNIFORM_STEP_PARAMS = defineStruct('UniformStepParams', {
  acceleration: 'vec3f',
  dt: 'f32',
  count: 'u32',
});

/** Every pass parameter block, for the schema test. */
export const PASS_PARAMS = [
  STEP_PARAMS,
  COLLIDE_PARAMS,
  CONTACT_PARAMS,
  GRID_PARAMS,
  SCATTER_PARAMS,
  SPRING_PARAMS,
  SPRING_LINK,
  SCAN_LEVEL,
  COPY_PARAMS,
  UNIFORM_STEP_PARAMS,
] as const;

/** Items a block of the deaths' scan covers: written into every kernel that sizes, runs or reads the scan (src/shaders/index.ts, scanBlock). */
export const SCAN_BLOCK = 1024;
