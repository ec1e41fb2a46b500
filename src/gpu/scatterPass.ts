/**
 * Owns the scatter pipelines (shaders/scatter.wgsl): writing one attribute of
 * a range of particles, and adding forces into the accumulator.
 */
import { ATTRIBUTES, type AttributeName } from '../core/layout';
import { dispatchSize } from './dispatch';
import type { ParticleBuffer } from './particleBuffer';
import { shaders } from './wgsl';

const PARAMS_BYTES = 32;

export class ScatterPass {
  private readonly params: GPUBuffer;
  private values: GPUBuffer | null = null;
  private valuesBindGroup: GPUBindGroup | null = null;
  private destroyed = false;

  private constructor(
    private readonly device: GPUDevice,
    private readonly particles: ParticleBuffer,
    private readonly writePipeline: GPUComputePipeline,
    private readonly addPipeline: GPUComputePipeline,
    private readonly valuesLayout: GPUBindGroupLayout,
    private readonly workgroupSize: number,
  ) {
    this.params = device.createBuffer({
      label: 'ScatterPass.params',
      size: PARAMS_BYTES,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
  }

  static async create(device: GPUDevice, particles: ParticleBuffer, workgroupSize: number): Promise<ScatterPass> {
    const valuesLayout = device.createBindGroupLayout({
      label: 'ScatterPass.valuesLayout',
      entries: [
        { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform' } },
        { binding: 1, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'read-only-storage' } },
      ],
    });
    const layout = device.createPipelineLayout({
      label: 'ScatterPass.pipelineLayout',
      bindGroupLayouts: [particles.bindGroupLayout, valuesLayout],
    });
    const module = device.createShaderModule({ label: 'scatter.wgsl', code: shaders.scatter() });
    const pipeline = (add: boolean) =>
      device.createComputePipeline({
        label: add ? 'ScatterPass.add' : 'ScatterPass.write',
        layout,
        compute: { module, entryPoint: 'main', constants: { WORKGROUP_SIZE: workgroupSize, ADD: add ? 1 : 0 } },
      });
    const [write, add] = [pipeline(false), pipeline(true)];
    return new ScatterPass(device, particles, write, add, valuesLayout, workgroupSize);
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
      this.valuesBindGroup = this.device.createBindGroup({
        label: 'ScatterPass.valuesBindGroup',
        layout: this.valuesLayout,
        entries: [
          { binding: 0, resource: { buffer: this.params } },
          { binding: 1, resource: { buffer: this.values } },
        ],
      });
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
    const lanes = new Float32Array(count * 4);
    for (let i = 0; i < count; i++) {
      for (let c = 0; c < size; c++) lanes[i * 4 + component + c] = values[i * size + c] as number;
    }
    const bindGroup = this.valuesBuffer(lanes.byteLength);
    const params = new Uint32Array(PARAMS_BYTES / 4);
    params.set([start, count, lane]);
    for (let c = 0; c < size; c++) params[4 + component + c] = 1;
    this.device.queue.writeBuffer(this.params, 0, params);
    this.device.queue.writeBuffer(this.values as GPUBuffer, 0, lanes);

    const [x, y] = dispatchSize(count, this.workgroupSize, this.device.limits.maxComputeWorkgroupsPerDimension);
    const pass = encoder.beginComputePass({ label: add ? 'ScatterPass.add' : 'ScatterPass.write' });
    pass.setPipeline(add ? this.addPipeline : this.writePipeline);
    pass.setBindGroup(0, this.particles.bindGroup);
    pass.setBindGroup(1, bindGroup);
    pass.dispatchWorkgroups(x, y);
    pass.end();
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.params.destroy();
    this.values?.destroy();
  }
}
