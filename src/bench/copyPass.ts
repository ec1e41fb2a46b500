/**
 * The roofline kernel: owns shaders/bench/copy.wgsl's pipeline and the two buffers
 * it copies between, `bytes` each. `copyBufferToBuffer` over the same buffers
 * gives the second roofline, the copy engine's (or the driver's memcpy).
 */
import { Kernel } from '../gpu/shared/kernel';
import { BenchPass } from './benchPass';
import { COPY_PARAMS } from '../shaders/params';
import { UniformBlock } from '../gpu/shared/uniformBlock';
import { shaders } from '../shaders';

/** Bytes one invocation of copy.wgsl copies: four vec4s, today's particle record. */
export const COPY_BYTES_PER_INVOCATION = 64;

export class CopyPass extends BenchPass {
  readonly source: GPUBuffer;
  readonly destination: GPUBuffer;
  private readonly params: UniformBlock<typeof COPY_PARAMS.fields>;
  private readonly bindGroup: GPUBindGroup;
  private readonly invocations: number;

  private constructor(
    device: GPUDevice,
    kernel: Kernel,
    readonly bytes: number,
    readonly workgroupSize: number,
  ) {
    super(device, kernel);
    const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
    this.source = device.createBuffer({ label: 'CopyPass.source', size: bytes, usage });
    this.destination = device.createBuffer({ label: 'CopyPass.destination', size: bytes, usage });
    this.invocations = bytes / COPY_BYTES_PER_INVOCATION;
    this.params = new UniformBlock(device, 'CopyPass.params', COPY_PARAMS);
    this.params.value.set('invocations', this.invocations);
    this.params.write();
    this.bindGroup = kernel.bindGroup(0, [this.source, this.destination, this.params.buffer], 'CopyPass.bindGroup');
  }

  /** Creates the pipeline and two buffers of `bytes` (a multiple of 64). Call inside the caller's error scopes. */
  static create(device: GPUDevice, bytes: number, workgroupSize: number): CopyPass {
    if (!Number.isInteger(bytes) || bytes <= 0 || bytes % COPY_BYTES_PER_INVOCATION !== 0) {
      throw new RangeError(`bytes = ${bytes} must be a positive multiple of ${COPY_BYTES_PER_INVOCATION}`);
    }
    const kernel = Kernel.create(device, null, {
      name: 'CopyPass',
      file: 'copy.wgsl',
      code: () => shaders.copy(),
      constants: { WORKGROUP_SIZE: workgroupSize },
      particles: false,
      groups: [['read-only-storage', 'storage', 'uniform']],
    });
    return new CopyPass(device, kernel, bytes, workgroupSize);
  }

  /** Records `repeats` copies of source to destination with the kernel, in one pass. */
  encode(encoder: GPUCommandEncoder, repeats = 1): void {
    const pass = encoder.beginComputePass({ label: 'CopyPass' });
    this.kernel.record(pass, [this.bindGroup], { count: this.invocations }, repeats);
    pass.end();
  }

  /** Records `repeats` copies of the same bytes with copyBufferToBuffer. */
  encodeBufferCopy(encoder: GPUCommandEncoder, repeats = 1): void {
    for (let r = 0; r < repeats; r++) encoder.copyBufferToBuffer(this.source, 0, this.destination, 0, this.bytes);
  }

  protected owned() {
    return [this.source, this.destination, this.params];
  }
}
