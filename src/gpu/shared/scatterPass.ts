/**
 * Owns the scatter pipelines (shaders/shared/scatter.wgsl): writing one attribute of
 * a range of particles, and adding forces into the accumulator.
 */
import { ATTRIBUTES, PARTICLE, type AttributeName } from '../../core/layout';
import { Kernel } from './kernel';
import type { ParticleBuffer } from './particleBuffer';
import { SCATTER_PARAMS } from '../../shaders/params';
import { UniformBlock } from './uniformBlock';
import { shaders } from '../../shaders';

export class ScatterPass {
  private readonly params: UniformBlock<typeof SCATTER_PARAMS.fields>;
  private values: GPUBuffer | null = null;
  private valuesBindGroup: GPUBindGroup | null = null;
  private destroyed = false;

  private constructor(
    private readonly device: GPUDevice,
    private readonly particles: ParticleBuffer,
    private readonly writeKernel: Kernel,
    private readonly addKernel: Kernel,
  ) {
    this.params = new UniformBlock(device, 'ScatterPass.params', SCATTER_PARAMS);
  }

  static async create(device: GPUDevice, particles: ParticleBuffer, workgroupSize: number): Promise<ScatterPass> {
    const write = Kernel.create(device, particles, {
      name: 'ScatterPass.write',
      file: 'scatter.wgsl',
      code: (store) => shaders.scatter(store),
      constants: { WORKGROUP_SIZE: workgroupSize, ADD: 0 },
      groups: [['uniform', 'read-only-storage']],
    });
    const add = write.variant({ name: 'ScatterPass.add', constants: { WORKGROUP_SIZE: workgroupSize, ADD: 1 } });
    return new ScatterPass(device, particles, write, add);
  }

  /** The values buffer, grown (never shrunk) to hold `bytes`. */
  private valuesBuffer(bytes: number): GPUBindGroup {
    if (!this.values || this.values.size < bytes) {
      this.values?.destroy();
      this.values = this.device.createBuffer({
        label: 'ScatterPass.values',
        size: Math.max(bytes, 256),
        usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
      });
      this.valuesBindGroup = this.writeKernel.bindGroup(
        0,
        [this.params.buffer, this.values],
        'ScatterPass.valuesBindGroup',
      );
    }
    return this.valuesBindGroup as GPUBindGroup;
  }

  /**
   * Records writing (or adding, with `add`) `values` (`size` floats a particle,
   * the attribute's size) into `attribute` of particles [start, start + count).
   * The uploads go through the queue, so the caller submits `encoder` before
   * encoding another scatter.
   */
  encode(
    encoder: GPUCommandEncoder,
    attribute: AttributeName,
    start: number,
    count: number,
    values: Float32Array,
    add: boolean,
  ): void {
    if (count === 0) return;
    const { lane, component, size } = ATTRIBUTES[attribute];
    // The shader addresses the buffer as vec4 lanes: this lane's index within a record.
    const laneIndex = PARTICLE.offsets[lane] / 16;
    const lanes = new Float32Array(count * 4);
    for (let i = 0; i < count; i++) {
      for (let c = 0; c < size; c++) lanes[i * 4 + component + c] = values[i * size + c] as number;
    }
    const bindGroup = this.valuesBuffer(lanes.byteLength);
    const mask = [0, 0, 0, 0];
    for (let c = 0; c < size; c++) mask[component + c] = 1;
    this.params.value.set('start', start).set('count', count).set('lane', laneIndex).set('mask', mask);
    this.params.write();
    this.device.queue.writeBuffer(this.values as GPUBuffer, 0, lanes);

    const pass = encoder.beginComputePass({ label: add ? 'ScatterPass.add' : 'ScatterPass.write' });
    (add ? this.addKernel : this.writeKernel).record(pass, [bindGroup], { count });
    pass.end();
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.params.destroy();
    this.values?.destroy();
  }
}
