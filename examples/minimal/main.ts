// The shortest path from install to particles on screen: a fountain of 20,000
// particles under gravity, bouncing on a ground plane, drawn from the GPU buffer.
import { acquireDevice, ParticleSystem } from 'sparkworks';
import {
  CanvasTarget,
  DEFAULT_LOOK,
  FixedStepClock,
  OrbitCamera,
  OrbitControls,
  ParticlePass,
} from 'sparkworks/render';

const { device } = await acquireDevice();
const canvas = document.querySelector('canvas')!;
const target = new CanvasTarget(device, canvas);

const system = await ParticleSystem.create(device, {
  capacity: 20_000,
  emitters: [
    {
      rate: 5_000,
      lifetime: [3, 4],
      shape: { type: 'disc', radius: 0.2 },
      velocity: { direction: [0, 1, 0], spread: 0.25, speed: [6, 8] },
      radius: 0.03,
    },
  ],
  collisions: { colliders: [{ type: 'plane', normal: [0, 1, 0], restitution: 0.5, friction: 0.2 }] },
});
system.forces.add({ type: 'gravity', g: [0, -9.81, 0] });

const camera = new OrbitCamera({ distance: 9, pitch: 0.35, target: [0, 2, 0] });
new OrbitControls(canvas, camera);
const particles = new ParticlePass(device, target.format, target.depthFormat);
const binding = particles.bindLive('particles', system.particleStore, system.liveBuffers!);
const look = { ...DEFAULT_LOOK, colorMode: 'life' as const };
const clock = new FixedStepClock({ dt: 1 / 60 });

let last = performance.now();
async function frame(now: number): Promise<void> {
  const plan = clock.advance((now - last) / 1000);
  last = now;
  if (plan.steps > 0) await system.stepMany(clock.dt, plan.steps);
  target.applyResize();
  camera.update(target.width / target.height);
  const encoder = device.createCommandEncoder();
  const pass = target.beginPass(encoder, [0.02, 0.02, 0.04]);
  const view = {
    viewProjection: camera.viewProjection,
    width: target.width,
    height: target.height,
    focalPixels: camera.focalPixels(target.height),
  };
  particles.draw(pass, binding, look, view, { extrapolate: 0, time: clock.time });
  pass.end();
  device.queue.submit([encoder.finish()]);
  requestAnimationFrame(frame);
}
requestAnimationFrame(frame);
