/**
 * The shape the lifecycle's per-particle kernels share (shaders/age.wgsl,
 * compact.wgsl, emit.wgsl): the particle records in group 0, the kernel's
 * lifecycle buffers in group 1, the frame's uniforms (at a dynamic offset) in
 * group 2 where the kernel reads them, dispatched indirectly with a count that
 * planStep or planEmit wrote on the GPU. Each kernel's module (agePass.ts,
 * compactPass.ts, emitPass.ts) says which WGSL, which buffers and which count;
 * this owns the pipeline and bind groups.
 */
import type { ParticleBuffer } from './particleBuffer';

export interface LiveKernelSpec {
  /** The owning pass's name, for labels, e.g. 'AgePass'. */
  name: string;
  /** The shader's file, for the module's label. */
  file: string;
  code: string;
  constants: Record<string, number>;
  /** Group 1, binding by binding: how the kernel reads the buffer, and the buffer. */
  bindings: readonly (readonly [GPUBufferBindingType, GPUBuffer])[];
  /** Group 2, where the kernel reads the frame's uniforms; absent where it does not. */
  frame?: GPUBufferBinding;
  /** The indirect dispatch: the arguments buffer and the byte offset of this kernel's count. */
  args: GPUBuffer;
  argsOffset: number;
}

export class LiveKernel {
  private constructor(
    private readonly pipeline: GPUComputePipeline,
    private readonly particles: ParticleBuffer,
    private readonly bindGroup: GPUBindGroup,
    private readonly frameGroup: GPUBindGroup | null,
    private readonly args: GPUBuffer,
    private readonly argsOffset: number,
  ) {}

  /** Created synchronously: the caller's error scopes catch any failure. */
  static create(device: GPUDevice, particles: ParticleBuffer, spec: LiveKernelSpec): LiveKernel {
    const { name } = spec;
    const layout = device.createBindGroupLayout({
      label: `${name}.layout`,
      entries: spec.bindings.map(([type], binding) => ({
        binding,
        visibility: GPUShaderStage.COMPUTE,
        buffer: { type },
      })),
    });
    const frameLayout = spec.frame
      ? device.createBindGroupLayout({
          label: `${name}.frameLayout`,
          entries: [
            { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform', hasDynamicOffset: true } },
          ],
        })
      : null;
    const pipeline = device.createComputePipeline({
      label: `${name}.pipeline`,
      layout: device.createPipelineLayout({
        label: `${name}.pipelineLayout`,
        bindGroupLayouts: [particles.bindGroupLayout, layout, ...(frameLayout ? [frameLayout] : [])],
      }),
      compute: {
        module: device.createShaderModule({ label: spec.file, code: spec.code }),
        entryPoint: 'main',
        constants: spec.constants,
      },
    });
    const bindGroup = device.createBindGroup({
      label: `${name}.bindGroup`,
      layout,
      entries: spec.bindings.map(([, buffer], binding) => ({ binding, resource: { buffer } })),
    });
    const frameGroup =
      frameLayout && spec.frame
        ? device.createBindGroup({
            label: `${name}.frameBindGroup`,
            layout: frameLayout,
            entries: [{ binding: 0, resource: spec.frame }],
          })
        : null;
    return new LiveKernel(pipeline, particles, bindGroup, frameGroup, spec.args, spec.argsOffset);
  }

  /** Into a compute pass the caller opened; `frameOffset` is the frame's uniforms' offset where the kernel reads them. */
  record(pass: GPUComputePassEncoder, frameOffset = 0): void {
    pass.setPipeline(this.pipeline);
    pass.setBindGroup(0, this.particles.bindGroup);
    pass.setBindGroup(1, this.bindGroup);
    if (this.frameGroup) pass.setBindGroup(2, this.frameGroup, [frameOffset]);
    pass.dispatchWorkgroupsIndirect(this.args, this.argsOffset);
  }

  /** Nothing of its own to free (the buffers are the lifecycle's). Safe twice. */
  destroy(): void {}
}
