/**
 * Bench only: the particle step over a structure of arrays
 * (shaders/bench/integrateSoA.wgsl). Owns six buffers, one per attribute,
 * vectors packed xyz, and converts to and from the packed records of
 * src/core/layout.ts so its state can be compared with the CPU reference.
 */
import { ATTRIBUTES, FLOATS_PER_PARTICLE, attributeOffset, type AttributeName } from '../core/layout';
import type { Variant } from '../core/variants';
import { Kernel } from '../gpu/shared/kernel';
import { BenchPass } from './benchPass';
import { STEP_PARAMS } from '../shaders/params';
import { UniformBlock } from '../gpu/shared/uniformBlock';
import { stepConstants } from '../gpu/step/stepParams';
import { shaders } from '../shaders';

/** The attributes the step reads, in integrateSoA.wgsl's binding order. */
const SOA_ATTRIBUTES = [
  'position',
  'velocity',
  'acceleration',
  'forceAccum',
  'inverseMass',
  'damping',
] as const satisfies readonly AttributeName[];

/** What one step touches a particle: reads every attribute, writes position, velocity, force. */
export const SOA_BYTES_READ = SOA_ATTRIBUTES.reduce((sum, name) => sum + ATTRIBUTES[name].size * 4, 0);
export const SOA_BYTES_WRITTEN = (['position', 'velocity', 'forceAccum'] as const).reduce(
  (sum, name) => sum + ATTRIBUTES[name].size * 4,
  0,
);

export class SoAStepPass extends BenchPass {
  readonly buffers: readonly GPUBuffer[];
  private readonly params: UniformBlock<typeof STEP_PARAMS.fields>;
  private readonly stateBindGroup: GPUBindGroup;
  private readonly paramsBindGroup: GPUBindGroup;

  private constructor(
    device: GPUDevice,
    kernel: Kernel,
    readonly capacity: number,
  ) {
    super(device, kernel);
    this.buffers = SOA_ATTRIBUTES.map((name) =>
      device.createBuffer({
        label: `SoAStepPass.${name}`,
        size: capacity * ATTRIBUTES[name].size * 4,
        usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC,
      }),
    );
    this.params = new UniformBlock(device, 'SoAStepPass.params', STEP_PARAMS);
    this.stateBindGroup = kernel.bindGroup(0, this.buffers, 'SoAStepPass.stateBindGroup');
    this.paramsBindGroup = kernel.bindGroup(1, [this.params.buffer], 'SoAStepPass.paramsBindGroup');
  }

  /** Creates the buffers and pipeline for `variant`. Call inside the caller's error scopes. */
  static create(device: GPUDevice, capacity: number, variant: Variant, workgroupSize: number): SoAStepPass {
    const kernel = Kernel.create(device, null, {
      name: `SoAStepPass(${variant.integrator}, ${variant.damping})`,
      file: 'bench/integrateSoA.wgsl',
      code: () => shaders.benchIntegrateSoA(),
      constants: stepConstants(variant, workgroupSize),
      particles: false,
      // position, velocity, acceleration, force, inverse mass, damping; the step's uniforms.
      groups: [
        ['storage', 'storage', 'read-only-storage', 'storage', 'read-only-storage', 'read-only-storage'],
        ['uniform'],
      ],
    });
    return new SoAStepPass(device, kernel, capacity);
  }

  /** Uploads `capacity` packed records, split into the six arrays. */
  write(packed: Float32Array): void {
    SOA_ATTRIBUTES.forEach((name, b) => {
      const { size } = ATTRIBUTES[name];
      const offset = attributeOffset(name);
      const out = new Float32Array(this.capacity * size);
      for (let i = 0; i < this.capacity; i++) {
        for (let c = 0; c < size; c++) out[i * size + c] = packed[i * FLOATS_PER_PARTICLE + offset + c] as number;
      }
      this.device.queue.writeBuffer(this.buffers[b] as GPUBuffer, 0, out);
    });
  }

  /** Reads the six arrays back as packed records (spare slots 0), for comparison with the reference. */
  async readPacked(): Promise<Float32Array> {
    const packed = new Float32Array(this.capacity * FLOATS_PER_PARTICLE);
    const arrays = await Promise.all(this.buffers.map((buffer) => readBuffer(this.device, buffer)));
    SOA_ATTRIBUTES.forEach((name, b) => {
      const { size } = ATTRIBUTES[name];
      const offset = attributeOffset(name);
      const values = arrays[b] as Float32Array;
      for (let i = 0; i < this.capacity; i++) {
        for (let c = 0; c < size; c++) packed[i * FLOATS_PER_PARTICLE + offset + c] = values[i * size + c] as number;
      }
    });
    return packed;
  }

  /** Records `steps` steps of `dt` over every particle; the caller submits before changing `dt`. */
  encode(encoder: GPUCommandEncoder, dt: number, steps = 1): void {
    this.params.value.set('dt', dt).set('count', this.capacity);
    this.params.write();
    const pass = encoder.beginComputePass({ label: 'SoAStepPass' });
    this.kernel.record(pass, [this.stateBindGroup, this.paramsBindGroup], { count: this.capacity }, steps);
    pass.end();
  }

  protected owned() {
    return [...this.buffers, this.params];
  }
}

/** Copies a storage buffer (its first `bytes`) to the host through a staging buffer, unmapped and destroyed after. */
export async function readBuffer(device: GPUDevice, buffer: GPUBuffer, bytes = buffer.size): Promise<Float32Array> {
  const staging = device.createBuffer({
    label: `${buffer.label}.readback`,
    size: bytes,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  try {
    const encoder = device.createCommandEncoder({ label: `readBuffer(${buffer.label})` });
    encoder.copyBufferToBuffer(buffer, 0, staging, 0, bytes);
    device.queue.submit([encoder.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    const out = new Float32Array(staging.getMappedRange().slice(0));
    staging.unmap();
    return out;
  } finally {
    staging.destroy();
  }
}
