/**
 * Bench only: the packed-record step with one acceleration for all particles,
 * read from the uniform (shaders/bench/integrateUniformAcceleration.wgsl). It
 * steps a ParticleSystem's own buffer through the shared state layout, so its
 * result reads back with the system's readPacked.
 */
import type { Variant } from '../core/variants';
import { dispatchSize } from '../gpu/dispatch';
import type { ParticleBuffer } from '../gpu/particleBuffer';
import { DAMPING_MODE_CONSTANT, benchShaders } from './wgsl';

const PARAMS_BYTES = 32; // vec3f acceleration, f32 dt, u32 count, padded to 16

export class UniformAccelerationPass {
  private readonly params: GPUBuffer;
  private readonly paramsBindGroup: GPUBindGroup;
  private destroyed = false;

  private constructor(
    private readonly device: GPUDevice,
    private readonly particles: ParticleBuffer,
    private readonly pipeline: GPUComputePipeline,
    paramsLayout: GPUBindGroupLayout,
    readonly workgroupSize: number,
  ) {
    this.params = device.createBuffer({
      label: 'UniformAccelerationPass.params',
      size: PARAMS_BYTES,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    this.paramsBindGroup = device.createBindGroup({
      label: 'UniformAccelerationPass.paramsBindGroup',
      layout: paramsLayout,
      entries: [{ binding: 0, resource: { buffer: this.params } }],
    });
  }

  /** Creates the pipeline for `variant`. Call inside the caller's error scopes. */
  static create(
    device: GPUDevice,
    particles: ParticleBuffer,
    variant: Variant,
    workgroupSize: number,
  ): UniformAccelerationPass {
    const paramsLayout = device.createBindGroupLayout({
      label: 'UniformAccelerationPass.paramsLayout',
      entries: [{ binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform' } }],
    });
    const pipeline = device.createComputePipeline({
      label: `UniformAccelerationPass.pipeline(${variant.integrator}, ${variant.damping})`,
      layout: device.createPipelineLayout({
        label: 'UniformAccelerationPass.pipelineLayout',
        bindGroupLayouts: [particles.bindGroupLayout, paramsLayout],
      }),
      compute: {
        module: device.createShaderModule({
          label: 'bench/integrateUniformAcceleration.wgsl',
          code: benchShaders.integrateUniformAcceleration(),
        }),
        entryPoint: 'main',
        constants: {
          WORKGROUP_SIZE: workgroupSize,
          SEMI_IMPLICIT: variant.integrator === 'semi-implicit' ? 1 : 0,
          DAMPING_MODE: DAMPING_MODE_CONSTANT[variant.damping],
        },
      },
    });
    return new UniformAccelerationPass(device, particles, pipeline, paramsLayout, workgroupSize);
  }

  /**
   * Records `steps` steps of `dt` with `acceleration` for every particle in
   * [0, count); the caller submits before changing the parameters.
   */
  encode(encoder: GPUCommandEncoder, acceleration: ArrayLike<number>, dt: number, count: number, steps = 1): void {
    const params = new ArrayBuffer(PARAMS_BYTES);
    new Float32Array(params, 0, 4).set([acceleration[0] ?? 0, acceleration[1] ?? 0, acceleration[2] ?? 0, dt]);
    new Uint32Array(params, 16, 1)[0] = count;
    this.device.queue.writeBuffer(this.params, 0, params);
    const [x, y] = dispatchSize(count, this.workgroupSize, this.device.limits.maxComputeWorkgroupsPerDimension);
    const pass = encoder.beginComputePass({ label: 'UniformAccelerationPass' });
    pass.setPipeline(this.pipeline);
    pass.setBindGroup(0, this.particles.bindGroup);
    pass.setBindGroup(1, this.paramsBindGroup);
    for (let s = 0; s < steps; s++) pass.dispatchWorkgroups(x, y);
    pass.end();
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.params.destroy();
  }
}
