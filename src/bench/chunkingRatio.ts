/**
 * The cost of chunked particle state (src/gpu/shared/particleBuffer.ts) against one
 * chunk, timed in one run on one device (the snapshots issue's capacity
 * benchmark): at each size, a system whose records are in several storage
 * buffers and a reference in one, `steps` plain steps of each in its own
 * command buffer, alternating every round. Where one binding holds the size,
 * the chunked system is the same size forced into four chunks and the ratio
 * is of step times; beyond it (2^25 on SwiftShader), the chunked system is
 * the size as the device splits it (in smaller chunks where memory cannot
 * back its largest) and the reference the largest power of two one binding
 * holds, compared per particle-step (halved until memory
 * backs it beside the chunked system). Sizes the device's memory cannot
 * back are skipped, saying so. Used by `npm run bench`, the
 * bench page and `npm run bench:chunking`.
 */
import { BYTES_PER_PARTICLE } from '../core/layout';
import { GpuOutOfMemoryError } from '../gpu/device/errors';
import { ParticleBuffer, STORAGE_BESIDE_PARTICLES } from '../gpu/shared/particleBuffer';
import { ParticleSystem } from '../gpu/particleSystem';
import { benchStatePacker } from './state';
import { median, timeSteps } from './timing';

/** The sizes the issue names, as exponents of two: 2^24 (one binding's worth on SwiftShader) and 2^25 (two). */
export const CHUNKING_RATIO_SIZES: readonly number[] = [24, 25];

export interface ChunkingRatioOptions {
  /** Exponents of two. Default CHUNKING_RATIO_SIZES. */
  sizes?: readonly number[];
  /** Timed rounds after one warm-up round. Default 3. */
  rounds?: number;
  dt?: number;
}

export interface ChunkingSizeTiming {
  /** Particles in the chunked system, its chunks and particles a chunk. */
  count: number;
  chunks: number;
  chunkParticles: number;
  /** Particles in the one-chunk reference (the count, or the most one binding holds). */
  referenceCount: number;
  /** Median milliseconds of one plain step of each. */
  stepMs: number;
  referenceStepMs: number;
  /** Median over rounds of (chunked / one chunk) per particle-step, each round timing both moments apart. */
  ratio: number;
  ratios: number[];
  /** The fastest rounds' ratio: the least disturbed on a shared machine. */
  fastestRatio: number;
}

export interface ChunkingRatioResult {
  /** Plain steps in one timed command buffer (each timing is divided by it). */
  steps: number;
  rounds: number;
  sizes: ChunkingSizeTiming[];
  /** Sizes not timed, and why (over the device's limits, out of memory). */
  skipped: string[];
}

const STEPS = 2;

/** A system of `count` bench particles (packed a host chunk at a time: 2^25 records are 2 GiB). */
async function benchSystem(device: GPUDevice, count: number, chunkParticles?: number): Promise<ParticleSystem> {
  const system = await ParticleSystem.create(device, { capacity: count, chunkParticles });
  system.particles.writeChunked(0, count, benchStatePacker());
  return system;
}

/** Wall time of STEPS plain steps of `system`, submitted alone after the queue drained, a step. */
function timeChunkedSteps(device: GPUDevice, system: ParticleSystem, dt: number): Promise<number> {
  return timeSteps(device, system, dt, STEPS, {
    label: 'measureChunkingRatio',
    scope: 'timing chunked steps',
    drain: true,
  });
}

/** Times chunked against one-chunk plain steps at each size, alternating every round. The device stays the caller's. */
export async function measureChunkingRatio(
  device: GPUDevice,
  options: ChunkingRatioOptions = {},
): Promise<ChunkingRatioResult> {
  const rounds = options.rounds ?? 3;
  const dt = options.dt ?? 1 / 60;
  const perBinding = ParticleBuffer.maxPerBinding(device);
  const largestChunk = 2 ** Math.floor(Math.log2(perBinding));
  const most = ParticleBuffer.maxParticles(device, STORAGE_BESIDE_PARTICLES.step);
  const sizes: ChunkingSizeTiming[] = [];
  const skipped: string[] = [];
  for (const exponent of options.sizes ?? CHUNKING_RATIO_SIZES) {
    const count = 2 ** exponent;
    if (count > most) {
      skipped.push(`chunking @ 2^${exponent}: over this device's ${most} particles (${BYTES_PER_PARTICLE} B each)`);
      continue;
    }
    // Within one binding: the same size forced into four chunks. Beyond: as the device splits it.
    const forced = count <= perBinding ? Math.max(4, count / 4) : undefined;
    let referenceCount = Math.min(count, largestChunk);
    const systems: ParticleSystem[] = [];
    try {
      // Where memory cannot back the device's largest chunks (SwiftShader's single allocations), smaller ones.
      let chunkParticles = forced;
      let chunked: ParticleSystem | null = null;
      while (!chunked) {
        try {
          chunked = await benchSystem(device, count, chunkParticles);
        } catch (error) {
          const smaller = (chunkParticles ?? largestChunk) / 2;
          const fits = Math.ceil(count / smaller) <= ParticleBuffer.maxChunks(device, STORAGE_BESIDE_PARTICLES.step);
          if (!(error instanceof GpuOutOfMemoryError) || !fits || smaller < 2 ** 16) throw error;
          chunkParticles = smaller;
        }
      }
      systems.push(chunked);
      // Where memory cannot back both at once, a smaller reference (per particle-step, down to 2^20).
      let reference: ParticleSystem | null = null;
      while (!reference) {
        try {
          reference = await benchSystem(device, referenceCount);
        } catch (error) {
          if (!(error instanceof GpuOutOfMemoryError) || referenceCount <= 2 ** 20) throw error;
          referenceCount /= 2;
        }
      }
      systems.push(reference);
      const steps: number[] = [];
      const references: number[] = [];
      // Round 0 warms up: pipelines, uploads, the driver's first dispatches.
      for (let round = 0; round <= rounds; round++) {
        const step = await timeChunkedSteps(device, chunked, dt);
        const referenceStep = await timeChunkedSteps(device, reference, dt);
        if (round > 0) {
          steps.push(step);
          references.push(referenceStep);
        }
      }
      const perParticle = (ms: number, n: number) => ms / n;
      const ratios = steps.map((s, r) => perParticle(s, count) / perParticle(references[r] as number, referenceCount));
      sizes.push({
        count,
        chunks: chunked.particleStore.buffers.length,
        chunkParticles: chunked.particles.chunkParticles,
        referenceCount,
        stepMs: median(steps),
        referenceStepMs: median(references),
        ratio: median(ratios),
        ratios,
        fastestRatio: perParticle(Math.min(...steps), count) / perParticle(Math.min(...references), referenceCount),
      });
    } catch (error) {
      if (!(error instanceof GpuOutOfMemoryError)) throw error;
      skipped.push(`chunking @ 2^${exponent}: out of memory (${(count * BYTES_PER_PARTICLE) / 2 ** 30} GiB of state)`);
    } finally {
      for (const system of systems) system.destroy();
    }
  }
  return { steps: STEPS, rounds, sizes, skipped };
}

/** One line a size: `chunked vs one chunk @ 2^25 (2 chunks of 2^24; reference 2^24): 1.02x per particle-step, ...`. */
export function chunkingRatioLines(result: ChunkingRatioResult): string[] {
  return [
    ...result.sizes.map(
      (s) =>
        `chunked vs one chunk @ 2^${Math.log2(s.count)} (${s.chunks} chunks of 2^${Math.log2(s.chunkParticles)}; ` +
        `reference 2^${Math.log2(s.referenceCount)} in one): ${s.ratio.toFixed(3)}x per particle-step, ` +
        `median of ${result.rounds} alternating rounds (step ${s.stepMs.toFixed(1)} ms, reference ${s.referenceStepMs.toFixed(1)} ms); ` +
        `fastest rounds ${s.fastestRatio.toFixed(3)}x`,
    ),
    ...result.skipped.map((reason) => `not timed: ${reason}`),
  ];
}
