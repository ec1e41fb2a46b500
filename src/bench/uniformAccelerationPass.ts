/**
 * Bench only: the packed-record step with one acceleration for all particles,
 * read from the uniform (shaders/bench/integrateUniformAcceleration.wgsl). It
 * steps a ParticleSystem's own buffer through the shared state layout, so its
 * result reads back with the system's readPacked.
 */
import type { Variant } from '../core/variants';
import { Kernel } from '../gpu/shared/kernel';
import { BenchPass } from './benchPass';
import type { ParticleBuffer } from '../gpu/shared/particleBuffer';
import { UNIFORM_STEP_PARAMS } from '../shaders/params';
import { UniformBlock } from '../gpu/shared/uniformBlock';
import { stepConstants } from '../gpu/step/stepParams';
import { shaders } from '../shaders';

export class UniformAccelerationPass extends BenchPass {
  private readonly params: UniformBlock<typeof UNIFORM_STEP_PARAMS.fields>;
  private readonly paramsBindGroup: GPUBindGroup;

  private constructor(device: GPUDevice, kernel: Kernel) {
    super(device, kernel);
    this.params = new UniformBlock(device, 'UniformAccelerationPass.params', UNIFORM_STEP_PARAMS);
    this.paramsBindGroup = kernel.bindGroup(0, [this.params.buffer], 'UniformAccelerationPass.paramsBindGroup');
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
      code: () => shaders.benchIntegrateUniformAcceleration(),
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
    this.params.value
      .set('acceleration', [acceleration[0] ?? 0, acceleration[1] ?? 0, acceleration[2] ?? 0])
      .set('dt', dt)
      .set('count', count);
    this.params.write();
    const pass = encoder.beginComputePass({ label: 'UniformAccelerationPass' });
    this.kernel.record(pass, [this.paramsBindGroup], { count }, steps);
    pass.end();
  }

  protected owned() {
    return [this.params];
  }
}
