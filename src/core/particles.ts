/**
 * Particle input, validated once for every backend, and packing into (and out
 * of) the one layout, in one import. Nothing here knows about the GPU. The
 * pieces live in src/core/input/: the value rules (rules.ts), a call's own
 * arguments (callArguments.ts), particle records (particleRecords.ts), one
 * attribute or forces in bulk (fieldWrites.ts), one array per attribute
 * (particleArrays.ts, with the loops of ruleScans.ts) and packed records
 * (packedRecords.ts).
 */
export * from './input/rules';
export * from './input/callArguments';
export {
  checkParticleList,
  defaultRecord,
  fillDefaultParticles,
  packParticles,
  unpackSnapshot,
  type FloatArray,
  type ParticleInit,
  type ParticleSnapshot,
  type Vec3Like,
} from './input/particleRecords';
export * from './input/fieldWrites';
export {
  checkParticleArrays,
  prepareParticleArrays,
  type ParticleArrays,
  type ParticleArraysShape,
  type PreparedArrays,
} from './input/particleArrays';
export * from './input/packedRecords';
