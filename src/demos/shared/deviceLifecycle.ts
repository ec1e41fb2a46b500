/**
 * A demo's device, from request to release: acquired (or the reason there is
 * none), watched for uncaptured errors and loss, given what every demo draws
 * with, and destroyed by the app that requested it.
 */
import { acquireDevice, type AdapterDescription } from '../../gpu/device/device';
import { withErrorScopes } from '../../gpu/device/errors';
import { CanvasTarget } from '../../render/canvasTarget';
import { GpuTimer } from '../../render/gpuTimer';
import { GridPass } from '../../render/gridPass';
import { LinePass } from '../../render/linePass';
import { LinkPass } from '../../render/linkPass';
import { ParticlePass } from '../../render/particlePass';
import type { RenderPasses } from './demo';
import { noAdapter, type SupportProblem } from './support';

/** A device and what the app draws and times with on it. */
export interface GpuState {
  device: GPUDevice;
  adapterInfo: AdapterDescription;
  target: CanvasTarget;
  passes: RenderPasses;
  timer: GpuTimer;
}

export interface DeviceWatch {
  /** An uncaptured WebGPU error on the device, by its message. */
  error(message: string): void;
  /** The device was lost (destroyed by its owner included). */
  lost(device: GPUDevice, info: GPUDeviceLostInfo): void;
}

/** A new device, watched by `watch`; or, when there is none, the problem in plain words. */
export async function openDevice(
  watch: DeviceWatch,
): Promise<{ device: GPUDevice; adapterInfo: AdapterDescription } | { problem: SupportProblem }> {
  let acquired;
  try {
    acquired = await acquireDevice();
  } catch (error) {
    return { problem: noAdapter((error as Error).message) };
  }
  const { device, adapterInfo } = acquired;
  device.addEventListener('uncapturederror', (event) => watch.error((event as GPUUncapturedErrorEvent).error.message));
  void device.lost.then((info) => watch.lost(device, info));
  return { device, adapterInfo };
}

/** The canvas target, the render passes and the step timer on `device`, created inside error scopes. */
export function createRenderer(
  device: GPUDevice,
  adapterInfo: AdapterDescription,
  canvas: HTMLCanvasElement,
): Promise<GpuState> {
  return withErrorScopes(device, 'creating the renderer', () => {
    const target = new CanvasTarget(device, canvas);
    const passes: RenderPasses = {
      particles: new ParticlePass(device, target.format, target.depthFormat),
      grid: new GridPass(device, target.format, target.depthFormat),
      lines: new LinePass(device, target.format, target.depthFormat),
      links: new LinkPass(device, target.format, target.depthFormat),
    };
    return { device, adapterInfo, target, passes, timer: new GpuTimer(device) };
  });
}

/** Destroys what createRenderer made, then the device (the app requested it, so it destroys it). */
export function releaseGpu(gpu: GpuState): void {
  gpu.timer.destroy();
  gpu.passes.particles.destroy();
  gpu.passes.grid.destroy();
  gpu.passes.lines.destroy();
  gpu.passes.links.destroy();
  gpu.target.destroy();
  gpu.device.destroy();
}
