/**
 * The GPU particle system: owns the particle buffer and the passes, decides
 * when to submit, and turns GPU errors and device loss into thrown errors.
 */
import type { ParticleSystemApi, ParticleSystemOptions } from '../core/api';
import { FLOATS_PER_PARTICLE } from '../core/layout';
import {
  checkRange,
  checkStepCount,
  checkTimeStep,
  fillDefaultParticles,
  packParticles,
  prepareFieldValues,
  prepareForces,
  unpackSnapshot,
  type ParticleInit,
  type ParticleSnapshot,
  type SettableField,
} from '../core/particles';
import { resolveVariant, type Variant } from '../core/variants';
import { DeviceLossWatch, withErrorScopes } from './errors';
import { IntegratePass } from './integratePass';
import { ParticleBuffer } from './particleBuffer';
import { ScatterPass } from './scatterPass';

export interface GpuParticleSystemOptions extends ParticleSystemOptions {
  /** Invocations per workgroup for every per-particle pass. Default 64. */
  workgroupSize?: number;
}

export const DEFAULT_WORKGROUP_SIZE = 64;

export class ParticleSystem implements ParticleSystemApi {
  readonly capacity: number;
  /** Resolves with the error when the device is lost; every later call throws it. */
  readonly lost: Promise<Error>;
  private destroyed = false;

  private constructor(
    readonly device: GPUDevice,
    readonly variant: Variant,
    readonly particles: ParticleBuffer,
    private readonly integratePass: IntegratePass,
    private readonly scatterPass: ScatterPass,
    private readonly loss: DeviceLossWatch,
  ) {
    this.capacity = particles.capacity;
    this.lost = loss.lost;
  }

  /** Creates a system on `device` (which stays the caller's to destroy). */
  static async create(device: GPUDevice, options: GpuParticleSystemOptions): Promise<ParticleSystem> {
    const variant = resolveVariant(options);
    const workgroupSize = options.workgroupSize ?? DEFAULT_WORKGROUP_SIZE;
    const maxInvocations = device.limits.maxComputeInvocationsPerWorkgroup;
    if (!Number.isInteger(workgroupSize) || workgroupSize < 1 || workgroupSize > maxInvocations) {
      throw new RangeError(`workgroupSize = ${workgroupSize} must be an integer in [1, ${maxInvocations}]`);
    }
    const loss = new DeviceLossWatch(device);
    loss.check();
    let particles: ParticleBuffer | undefined;
    let integrate: IntegratePass | undefined;
    let scatter: ScatterPass | undefined;
    try {
      await withErrorScopes(device, 'creating the particle system', async () => {
        particles = new ParticleBuffer(device, options.capacity);
        [integrate, scatter] = await Promise.all([
          IntegratePass.create(device, particles, variant, workgroupSize),
          ScatterPass.create(device, particles, workgroupSize),
        ]);
      });
    } catch (error) {
      integrate?.destroy();
      scatter?.destroy();
      particles?.destroy();
      throw error;
    }
    const system = new ParticleSystem(
      device,
      variant,
      particles as ParticleBuffer,
      integrate as IntegratePass,
      scatter as ScatterPass,
      loss,
    );
    // Every slot starts as Cyclone's default particle: at rest, mass 1, no damping.
    const defaults = new Float32Array(system.capacity * FLOATS_PER_PARTICLE);
    fillDefaultParticles(defaults, 0, system.capacity);
    await system.submit('initialising particles', () => system.particles.write(0, defaults));
    return system;
  }

  private checkUsable(): void {
    if (this.destroyed) throw new Error('this ParticleSystem has been destroyed');
    this.loss.check();
  }

  /** Runs `record` (which may encode into a fresh encoder) and submits it, inside error scopes. */
  private async submit(operation: string, record: (encoder: GPUCommandEncoder) => void): Promise<void> {
    this.checkUsable();
    await withErrorScopes(this.device, operation, () => {
      const encoder = this.device.createCommandEncoder({ label: `ParticleSystem: ${operation}` });
      record(encoder);
      this.device.queue.submit([encoder.finish()]);
    });
  }

  async writeParticles(start: number, particles: readonly ParticleInit[]): Promise<void> {
    this.checkUsable();
    checkRange(start, particles.length, this.capacity);
    const packed = packParticles(particles);
    await this.submit('writeParticles', () => this.particles.write(start, packed));
  }

  async setField(field: SettableField, start: number, values: ArrayLike<number>): Promise<void> {
    this.checkUsable();
    const prepared = prepareFieldValues(field, values);
    checkRange(start, prepared.count, this.capacity);
    await this.submit(`setField(${field})`, (encoder) =>
      this.scatterPass.encode(encoder, prepared.attribute, start, prepared.count, prepared.values, false),
    );
  }

  async addForces(start: number, forces: ArrayLike<number>): Promise<void> {
    this.checkUsable();
    const prepared = prepareForces(forces);
    const count = prepared.length / 3;
    checkRange(start, count, this.capacity);
    await this.submit('addForces', (encoder) =>
      this.scatterPass.encode(encoder, 'forceAccum', start, count, prepared, true),
    );
  }

  async step(dt: number): Promise<void> {
    await this.stepMany(dt, 1);
  }

  async stepMany(dt: number, steps: number): Promise<void> {
    this.checkUsable();
    checkTimeStep(dt);
    checkStepCount(steps);
    await this.submit(`step(dt = ${dt}) x ${steps}`, (encoder) => this.encodeSteps(encoder, dt, steps));
  }

  /**
   * Records `steps` steps into the caller's encoder, to compose with other
   * work in one command buffer; the caller submits. Up to 256 distinct `dt`
   * values may be pending in command buffers not yet submitted.
   */
  encodeSteps(encoder: GPUCommandEncoder, dt: number, steps = 1): void {
    this.checkUsable();
    checkTimeStep(dt);
    checkStepCount(steps);
    if (steps > 0) this.integratePass.encode(encoder, dt, this.capacity, steps);
  }

  async read(start = 0, count = this.capacity - start): Promise<ParticleSnapshot> {
    const packed = await this.readPacked(start, count);
    return unpackSnapshot(packed, count, (n) => new Float32Array(n));
  }

  async readPacked(start = 0, count = this.capacity - start): Promise<Float32Array> {
    this.checkUsable();
    checkRange(start, count, this.capacity);
    return withErrorScopes(this.device, 'read', () => this.particles.read(start, count));
  }

  /** Frees this system's GPU objects (not the device). Safe to call twice. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.integratePass.destroy();
    this.scatterPass.destroy();
    this.particles.destroy();
  }
}
