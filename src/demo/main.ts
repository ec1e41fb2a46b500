/**
 * The browser page: runs a scene on the GPU and on the CPU reference with
 * the same code as the Node CLI, and draws both trajectories (GPU as dots,
 * reference as lines) side on, so a user sees that they agree.
 */
import GUI from 'lil-gui';
import { parseScene, sceneToParticles } from '../scene/scene';
import { CpuParticleSystem } from '../core/cpuParticleSystem';
import { DAMPING_MODES, INTEGRATION_ORDERS, type Variant } from '../core/variants';
import { acquireDevice, type AcquiredDevice } from '../gpu/device';
import { ParticleSystem } from '../gpu/particleSystem';

const status = document.querySelector<HTMLDivElement>('#status')!;
const canvas = document.querySelector<HTMLCanvasElement>('#view')!;

const params = {
  scene: 'ballistic.json',
  integrator: 'explicit' as Variant['integrator'],
  damping: 'per-second' as Variant['damping'],
  dt: 1 / 60,
  steps: 240,
};

function fail(message: string): void {
  status.className = 'error';
  status.textContent = message;
}

type Trajectories = { gpu: Float32Array[]; cpu: Float32Array[] };

async function simulate(acquired: AcquiredDevice): Promise<Trajectories> {
  const text = await (await fetch(`${import.meta.env.BASE_URL}scenes/${params.scene}`)).text();
  const particles = sceneToParticles(parseScene(text, params.scene));
  const variant = { integrator: params.integrator, damping: params.damping };
  const gpu = await ParticleSystem.create(acquired.device, { capacity: particles.length, ...variant });
  const cpu = new CpuParticleSystem({ capacity: particles.length, ...variant });
  const out: Trajectories = { gpu: [], cpu: [] };
  try {
    await gpu.writeParticles(0, particles);
    cpu.writeParticles(0, particles);
    for (let s = 0; s <= params.steps; s++) {
      out.gpu.push((await gpu.read()).position);
      out.cpu.push((await cpu.read()).position);
      await gpu.step(params.dt);
      cpu.step(params.dt);
    }
  } finally {
    gpu.destroy();
  }
  return out;
}

function draw({ gpu, cpu }: Trajectories): number {
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(canvas.clientWidth * ratio);
  canvas.height = Math.round(canvas.clientHeight * ratio);
  const context = canvas.getContext('2d')!;
  context.fillStyle = '#0d0f14';
  context.fillRect(0, 0, canvas.width, canvas.height);
  // Side view: z to the right, y up, fitted to every point of both runs.
  let [minZ, maxZ, minY, maxY] = [Infinity, -Infinity, Infinity, -Infinity];
  for (const frame of [...gpu, ...cpu]) {
    for (let i = 0; i < frame.length; i += 3) {
      minZ = Math.min(minZ, frame[i + 2]!);
      maxZ = Math.max(maxZ, frame[i + 2]!);
      minY = Math.min(minY, frame[i + 1]!);
      maxY = Math.max(maxY, frame[i + 1]!);
    }
  }
  const margin = 30 * ratio;
  const scale = Math.min(
    (canvas.width - 2 * margin) / (maxZ - minZ || 1),
    (canvas.height - 2 * margin) / (maxY - minY || 1),
  );
  const toX = (z: number) => margin + (z - minZ) * scale;
  const toY = (y: number) => canvas.height - margin - (y - minY) * scale;
  const count = (gpu[0]?.length ?? 0) / 3;
  let worst = 0;
  for (let p = 0; p < count; p++) {
    const hue = (p * 360) / count;
    context.strokeStyle = `hsl(${hue} 80% 60% / 0.6)`;
    context.lineWidth = 2 * ratio;
    context.beginPath();
    cpu.forEach((frame, s) =>
      (s === 0 ? context.moveTo : context.lineTo).call(context, toX(frame[p * 3 + 2]!), toY(frame[p * 3 + 1]!)),
    );
    context.stroke();
    context.fillStyle = `hsl(${hue} 90% 75%)`;
    gpu.forEach((frame, s) => {
      if (s % 4 === 0)
        context.fillRect(
          toX(frame[p * 3 + 2]!) - 1.5 * ratio,
          toY(frame[p * 3 + 1]!) - 1.5 * ratio,
          3 * ratio,
          3 * ratio,
        );
      for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(frame[p * 3 + c]! - cpu[s]![p * 3 + c]!));
    });
  }
  return worst;
}

async function main(): Promise<void> {
  if (!('gpu' in navigator)) {
    fail(
      'This browser has no WebGPU (navigator.gpu is missing). Use a current Chrome, Edge or Firefox Nightly, ' +
        'or start Chromium with --enable-unsafe-webgpu. On Linux also add --enable-features=Vulkan.',
    );
    return;
  }
  let acquired: AcquiredDevice;
  try {
    acquired = await acquireDevice();
  } catch (error) {
    fail(`WebGPU is present but no adapter could be had: ${(error as Error).message}. Check chrome://gpu.`);
    return;
  }
  acquired.device.addEventListener('uncapturederror', (event) =>
    fail(`GPU error: ${(event as GPUUncapturedErrorEvent).error.message}`),
  );
  void acquired.device.lost.then((info) =>
    fail(`The GPU device was lost (${info.reason}): ${info.message}. Reload the page.`),
  );

  const run = async () => {
    status.className = '';
    status.textContent = 'Simulating…';
    try {
      const started = performance.now();
      const worst = draw(await simulate(acquired));
      status.textContent =
        `${acquired.adapterInfo.description} · ${params.integrator}/${params.damping} · ${params.steps} steps of ${params.dt.toFixed(4)} s ` +
        `in ${(performance.now() - started).toFixed(0)} ms · dots: GPU, lines: CPU reference · largest |GPU − CPU| position difference ${worst.toExponential(2)}`;
    } catch (error) {
      fail(String(error));
    }
  };
  const gui = new GUI({ title: 'Sparkworks' });
  gui.add(params, 'scene', ['ballistic.json', 'drag.json']).onFinishChange(run);
  gui.add(params, 'integrator', [...INTEGRATION_ORDERS]).onFinishChange(run);
  gui.add(params, 'damping', [...DAMPING_MODES]).onFinishChange(run);
  gui.add(params, 'dt', 0.001, 0.1).onFinishChange(run);
  gui.add(params, 'steps', 10, 1000, 1).onFinishChange(run);
  window.addEventListener('resize', () => void run());
  await run();
}

void main();
