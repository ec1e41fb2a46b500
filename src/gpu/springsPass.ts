/**
 * Owns the pair-spring pass (shaders/springs.wgsl): its pipeline and the
 * link rows, uploaded when the links change.
 */
import type { SpringNetwork } from '../core/forces/registry';
import { dispatchSize } from './dispatch';
import type { ParticleBuffer } from './particleBuffer';
import { shaders } from './wgsl';

const MIN_BYTES = 16;
const LINK_BYTES = 16;

type Storage = 'offsets' | 'ends' | 'links';

export class SpringsPass {
  private readonly params: GPUBuffer;
  private readonly buffers: Record<Storage, GPUBuffer>;
  private bindGroup: GPUBindGroup;
  private version = -1;
  private rowCount = 0;
  /** Buffers outgrown while recorded command buffers may still use them: freed with the pass. */
  private readonly retired: GPUBuffer[] = [];
  private destroyed = false;

  private constructor(
    private readonly device: GPUDevice,
    private readonly particles: ParticleBuffer,
    private readonly pipeline: GPUComputePipeline,
    private readonly layout: GPUBindGroupLayout,
    readonly workgroupSize: number,
  ) {
    this.params = device.createBuffer({
      label: 'SpringsPass.params',
      size: 16,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    this.buffers = {
      offsets: this.createStorage('offsets', MIN_BYTES),
      ends: this.createStorage('ends', MIN_BYTES),
      links: this.createStorage('links', MIN_BYTES),
    };
    this.bindGroup = this.createBindGroup();
  }

  /** Created synchronously: the caller's error scopes catch any failure. */
  static create(device: GPUDevice, particles: ParticleBuffer, workgroupSize: number): SpringsPass {
    const storage = { type: 'read-only-storage' } as const;
    const layout = device.createBindGroupLayout({
      label: 'SpringsPass.layout',
      entries: [
        { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform' } },
        { binding: 1, visibility: GPUShaderStage.COMPUTE, buffer: storage },
        { binding: 2, visibility: GPUShaderStage.COMPUTE, buffer: storage },
        { binding: 3, visibility: GPUShaderStage.COMPUTE, buffer: storage },
      ],
    });
    const pipeline = device.createComputePipeline({
      label: 'SpringsPass.pipeline',
      layout: device.createPipelineLayout({
        label: 'SpringsPass.pipelineLayout',
        bindGroupLayouts: [particles.bindGroupLayout, layout],
      }),
      compute: {
        module: device.createShaderModule({ label: 'springs.wgsl', code: shaders.springs() }),
        entryPoint: 'main',
        constants: { WORKGROUP_SIZE: workgroupSize },
      },
    });
    return new SpringsPass(device, particles, pipeline, layout, workgroupSize);
  }

  private createStorage(name: Storage, bytes: number): GPUBuffer {
    return this.device.createBuffer({
      label: `SpringsPass.${name}`,
      size: Math.max(MIN_BYTES, bytes),
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    });
  }

  private createBindGroup(): GPUBindGroup {
    return this.device.createBindGroup({
      label: 'SpringsPass.bindGroup',
      layout: this.layout,
      entries: [
        { binding: 0, resource: { buffer: this.params } },
        { binding: 1, resource: { buffer: this.buffers.offsets } },
        { binding: 2, resource: { buffer: this.buffers.ends } },
        { binding: 3, resource: { buffer: this.buffers.links } },
      ],
    });
  }

  /** Uploads the rows if the links changed since the last call. */
  prepare(network: SpringNetwork): void {
    if (network.version === this.version) return;
    const rows = network.rows;
    const links = new ArrayBuffer(Math.max(rows.bungee.length * LINK_BYTES, 4));
    const floats = new Float32Array(links);
    const words = new Uint32Array(links);
    for (let k = 0; k < rows.bungee.length; k++) {
      floats[4 * k] = rows.params32[2 * k] as number;
      floats[4 * k + 1] = rows.params32[2 * k + 1] as number;
      words[4 * k + 2] = rows.bungee[k] as number;
    }
    const uploads: [Storage, ArrayBuffer][] = [
      ['offsets', rows.offsets.buffer as ArrayBuffer],
      ['ends', rows.ends.buffer as ArrayBuffer],
      ['links', links],
    ];
    let grown = false;
    for (const [name, data] of uploads) {
      if (data.byteLength > this.buffers[name].size) {
        this.retired.push(this.buffers[name]);
        this.buffers[name] = this.createStorage(name, Math.max(data.byteLength, 2 * this.buffers[name].size));
        grown = true;
      }
      if (data.byteLength > 0) this.device.queue.writeBuffer(this.buffers[name], 0, data);
    }
    if (grown) this.bindGroup = this.createBindGroup();
    this.device.queue.writeBuffer(this.params, 0, new Uint32Array([rows.first, rows.count, 0, 0]));
    this.rowCount = rows.count;
    this.version = network.version;
  }

  /** Records the pass over the particles with springs into a compute pass the caller opened. */
  record(pass: GPUComputePassEncoder): void {
    if (this.rowCount === 0) return;
    const [x, y] = dispatchSize(this.rowCount, this.workgroupSize, this.device.limits.maxComputeWorkgroupsPerDimension);
    pass.setPipeline(this.pipeline);
    pass.setBindGroup(0, this.particles.bindGroup);
    pass.setBindGroup(1, this.bindGroup);
    pass.dispatchWorkgroups(x, y);
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.params.destroy();
    for (const buffer of Object.values(this.buffers)) buffer.destroy();
    for (const buffer of this.retired) buffer.destroy();
  }
}
