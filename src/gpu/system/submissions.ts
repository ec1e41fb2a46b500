/**
 * When a system's work reaches the GPU: its own calls submit a command
 * buffer each, inside error scopes, after writing the initial records no
 * write has covered (writeBuffer is ordered before any later submit, so
 * that needs no submit of its own); a caller's encoder holds uniform slots
 * until the caller says it submitted. A destroyed system or a lost device
 * refuses every call.
 */
import { withErrorScopes } from '../device/errors';
import type { SystemParts } from './assembly';
import type { WrittenState } from './writtenState';

export class Submissions {
  private destroyed = false;
  /** Set by a caller's encode until `submitted()`: its encoder may still hold uniform slots. */
  private callerEncoderPending = false;

  constructor(
    private readonly device: GPUDevice,
    private readonly parts: SystemParts,
    private readonly written: WrittenState,
  ) {}

  /** Throws if the system was destroyed or its device lost. */
  checkUsable(): void {
    if (this.destroyed) throw new Error('this ParticleSystem has been destroyed');
    this.parts.loss.check();
  }

  /**
   * Writes the initial records of the slots no write has covered. Called
   * before anything can read the state: every submit, encode and read, and
   * every getter that hands the buffer (or passes bound to it) out.
   */
  settle(): void {
    if (this.destroyed) return;
    this.written.settle(({ start, end, record }) => this.parts.state.writeRepeated(start, end - start, record));
  }

  /** Runs `record` into a fresh encoder and submits it, inside error scopes. */
  async submit(operation: string, record: (encoder: GPUCommandEncoder) => void): Promise<void> {
    this.checkUsable();
    await withErrorScopes(this.device, operation, () => {
      this.settle();
      const encoder = this.device.createCommandEncoder({ label: `ParticleSystem: ${operation}` });
      record(encoder);
      this.device.queue.submit([encoder.finish()]);
      // The slots this call used are submitted; those of a caller's own encoder may not be yet.
      if (!this.callerEncoderPending) this.parts.state.submissions.submitted();
    });
    // A device lost (or destroyed) just before or during this call reports no error in its scopes, and its
    // work never runs: the loss has been delivered by now, and the call fails with it rather than resolve.
    this.parts.loss.check();
  }

  /** Before recording into a caller's encoder: the state settled, the uniform slots held until `submitted()`. */
  intoCallerEncoder(): void {
    this.settle();
    this.callerEncoderPending = true;
  }

  submitted(): void {
    this.callerEncoderPending = false;
    this.parts.state.submissions.submitted();
  }

  /** True the first time only: whoever destroys the system's objects. */
  destroy(): boolean {
    if (this.destroyed) return false;
    this.destroyed = true;
    return true;
  }
}
