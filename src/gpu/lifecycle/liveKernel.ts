/**
 * The lifecycle's per-particle kernels (shaders/lifecycle/age.wgsl, compact.wgsl,
 * emit.wgsl) as Kernels (src/gpu/shared/kernel.ts) of one shape: the particle
 * records in group 0, the kernel's lifecycle buffers in group 1, the frame's
 * uniforms (at a dynamic offset) in group 2 where the kernel reads them,
 * dispatched over a bound the host knows (the capacity, the death bits'
 * words), the invocations past the count the GPU wrote returning at once.
 * src/gpu/lifecycle/lifecycleKernels.ts declares each: its WGSL, its buffers and its
 * bound.
 */
import { Kernel, type Dispatch, type KernelSpec, type PerChunk } from '../shared/kernel';
import type { ParticleBuffer } from '../shared/particleBuffer';

export interface LiveKernelSpec {
  /** The owning pass's name, for labels, e.g. 'AgePass'. */
  name: string;
  /** The shader's file, for the module's label. */
  file: string;
  code: KernelSpec['code'];
  constants: Record<string, number>;
  /** Group 1, binding by binding: how the kernel reads the buffer, and the buffer (or a range of one). */
  bindings: readonly (readonly [GPUBufferBindingType, GPUBuffer | GPUBufferBinding])[];
  /** Group 2, where the kernel reads the frame's uniforms; absent where it does not. */
  frame?: GPUBufferBinding;
  /** Over the kernel's bound (src/gpu/lifecycle/lifecycleKernels.ts). */
  dispatch: Dispatch;
  /** Over chunked particle state (see PerChunk): 'owner' for a kernel that skips other chunks' slots, 'unread' for one that never reads the particles. */
  perChunk: PerChunk;
}

export class LiveKernel {
  private constructor(
    private readonly kernel: Kernel,
    private readonly buffers: GPUBindGroup,
    private readonly frame: GPUBindGroup | null,
    private readonly dispatch: Dispatch,
  ) {}

  /** Created synchronously: the caller's error scopes catch any failure. */
  static create(device: GPUDevice, particles: ParticleBuffer, spec: LiveKernelSpec): LiveKernel {
    const kernel = Kernel.create(device, particles, {
      name: spec.name,
      file: spec.file,
      code: spec.code,
      constants: spec.constants,
      groups: [spec.bindings.map(([type]) => type), ...(spec.frame ? [['uniform-dynamic' as const]] : [])],
      perChunk: spec.perChunk,
    });
    const buffers = kernel.bindGroup(
      0,
      spec.bindings.map(([, buffer]) => buffer),
      `${spec.name}.bindGroup`,
    );
    const frame = spec.frame ? kernel.bindGroup(1, [spec.frame], `${spec.name}.frameBindGroup`) : null;
    return new LiveKernel(kernel, buffers, frame, spec.dispatch);
  }

  /** Into a compute pass the caller opened; `frameOffset` is the frame's uniforms' offset where the kernel reads them. */
  record(pass: GPUComputePassEncoder, frameOffset = 0): void {
    const groups = this.frame ? [this.buffers, { group: this.frame, offsets: [frameOffset] }] : [this.buffers];
    this.kernel.record(pass, groups, this.dispatch);
  }

  /** Nothing of its own to free (the buffers are the lifecycle's). Safe twice. */
  destroy(): void {}
}
