/**
 * Bench only: the packed-record step with one acceleration for all particles,
 * read from the uniform (shaders/bench/integrateUniformAcceleration.wgsl). It
 * steps a ParticleSystem's own buffer through the shared state layout, so its
 * result reads back with the system's readPacked.
 */
import type { Variant } from '../core/variants';
import { Kernel } from '../gpu/kernel';
import type { ParticleBuffer } from '../gpu/particleBuffer';
import { UNIFORM_STEP_PARAMS } from '../gpu/passParams';
import { stepConstants } from '../gpu/stepParams';
import { shaders } from '../shaders';

export class UniformAccelerationPass {
  private readonly params: GPUBuffer;
  private readonly paramsBindGroup: GPUBindGroup;
  private destroyed = false;

  private constructor(
    private readonly device: GPUDevice,
    private readonly kernel: Kernel,
  ) {
    this.params = device.createBuffer({
      label: 'UniformAccelerationPass.params',
      size: UNIFORM_STEP_PARAMS.size,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    this.paramsBindGroup = kernel.bindGroup(0, [this.params], 'UniformAccelerationPass.paramsBindGroup');
  }

  /** Creates the pipeline for `variant`. Call inside the caller's error scopes. */
  static create(
    device: GPUDevice,
    particles: ParticleBuffer,
    variant: Variant,
    workgroupSize: number,
  ): UniformAccelerationPass {
    const kernel = Kernel.create(device, particles, {
      name: `UniformAccelerationPass(${variant.integrator}, ${variant.damping})`,
      file: 'bench/integrateUniformAcceleration.wgsl',
      code: shaders.benchIntegrateUniformAcceleration(),
      constants: stepConstants(variant, workgroupSize),
      groups: [['uniform']],
    });
    return new UniformAccelerationPass(device, kernel);
  }

  /**
   * Records `steps` steps of `dt` with `acceleration` for every particle in
   * [0, count); the caller submits before changing the parameters.
   */
  encode(encoder: GPUCommandEncoder, acceleration: ArrayLike<number>, dt: number, count: number, steps = 1): void {
    const params = UNIFORM_STEP_PARAMS.value()
      .set('acceleration', [acceleration[0] ?? 0, acceleration[1] ?? 0, acceleration[2] ?? 0])
      .set('dt', dt)
      .set('count', count);
    this.device.queue.writeBuffer(this.params, 0, params.bytes);
    const pass = encoder.beginComputePass({ label: 'UniformAccelerationPass' });
    this.kernel.record(pass, [this.paramsBindGroup], { count }, steps);
    pass.end();
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.params.destroy();
  }
}
