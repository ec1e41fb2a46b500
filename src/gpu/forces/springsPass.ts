/**
 * Owns the pair-spring pass (shaders/forces/springs.wgsl): its pipeline and the
 * link rows, uploaded when the links change.
 */
import type { SpringNetwork } from '../../core/forces/registry';
import { Kernel } from '../shared/kernel';
import type { ParticleBuffer } from '../shared/particleBuffer';
import { SPRING_LINK, SPRING_PARAMS } from '../../shaders/params';
import { UniformBlock } from '../shared/uniformBlock';
import { shaders } from '../../shaders';

const MIN_BYTES = 16;

type Storage = 'offsets' | 'ends' | 'links';

export class SpringsPass {
  private readonly params: UniformBlock<typeof SPRING_PARAMS.fields>;
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
    private readonly kernel: Kernel,
  ) {
    this.params = new UniformBlock(device, 'SpringsPass.params', SPRING_PARAMS);
    this.buffers = {
      offsets: this.createStorage('offsets', MIN_BYTES),
      ends: this.createStorage('ends', MIN_BYTES),
      links: this.createStorage('links', MIN_BYTES),
    };
    this.bindGroup = this.createBindGroup();
  }

  /** Created synchronously: the caller's error scopes catch any failure. */
  static create(device: GPUDevice, particles: ParticleBuffer, workgroupSize: number): SpringsPass {
    const kernel = Kernel.create(device, particles, {
      name: 'SpringsPass',
      file: 'springs.wgsl',
      code: (store) => shaders.springs(store),
      constants: { WORKGROUP_SIZE: workgroupSize },
      // params; each row's offsets, the rows' ends, the links.
      groups: [['uniform', 'read-only-storage', 'read-only-storage', 'read-only-storage']],
    });
    return new SpringsPass(device, particles, kernel);
  }

  private createStorage(name: Storage, bytes: number): GPUBuffer {
    return this.device.createBuffer({
      label: `SpringsPass.${name}`,
      size: Math.max(MIN_BYTES, bytes),
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    });
  }

  private createBindGroup(): GPUBindGroup {
    const { offsets, ends, links } = this.buffers;
    return this.kernel.bindGroup(0, [this.params.buffer, offsets, ends, links], 'SpringsPass.bindGroup');
  }

  /** Uploads the rows if the links changed since the last call. */
  prepare(network: SpringNetwork): void {
    if (network.version === this.version) return;
    const rows = network.rows;
    const links = SPRING_LINK.array(rows.bungee.length);
    for (let k = 0; k < rows.bungee.length; k++) {
      links
        .set(k, 'restLength', rows.params32[2 * k] as number)
        .set(k, 'stiffness', rows.params32[2 * k + 1] as number)
        .set(k, 'bungee', rows.bungee[k] as number);
    }
    const uploads: [Storage, ArrayBuffer][] = [
      ['offsets', rows.offsets.buffer as ArrayBuffer],
      ['ends', rows.ends.buffer as ArrayBuffer],
      ['links', links.bytes.buffer],
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
    this.params.value.set('first', rows.first).set('count', rows.count);
    this.params.write();
    this.rowCount = rows.count;
    this.version = network.version;
  }

  /** Records the pass over the particles with springs into a compute pass the caller opened. */
  record(pass: GPUComputePassEncoder): void {
    if (this.rowCount === 0) return;
    this.kernel.record(pass, [this.bindGroup], { count: this.rowCount });
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.params.destroy();
    for (const buffer of Object.values(this.buffers)) buffer.destroy();
    for (const buffer of this.retired) buffer.destroy();
  }
}
