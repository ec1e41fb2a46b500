/**
 * Where render's camera stands: the --camera flag's settings, the parts not
 * given fitted to the scene, and the gallery's OrbitCamera placed to match.
 */
import { OrbitCamera } from '../render/camera';
import type { Scene } from '../scene/scene';
import { refuseFlag } from './flags';
import { sceneGrid } from './renderBackdrop';

/** Where the camera is: what it looks at, from where, with which vertical field of view (degrees). */
export interface RenderCamera {
  target: [number, number, number];
  eye: [number, number, number];
  fov: number;
}

/** `--camera target=0,1,0 eye=0,3,10 fov=45`: any of the three, space- or comma-separated settings. */
export function parseCamera(settings: readonly string[]): Partial<RenderCamera> {
  const camera: Partial<RenderCamera> = {};
  for (const setting of settings.flatMap((s) => s.trim().split(/\s+/)).filter((s) => s !== '')) {
    const [key, value = ''] = setting.split('=', 2);
    if (key === 'target' || key === 'eye') {
      const xyz = value.split(',').map((x) => (x.trim() === '' ? Number.NaN : Number(x)));
      if (xyz.length !== 3 || !xyz.every(Number.isFinite)) {
        refuseFlag('--camera', setting, `${key} must be three finite numbers x,y,z`);
      }
      camera[key] = xyz as [number, number, number];
    } else if (key === 'fov') {
      const fov = value.trim() === '' ? Number.NaN : Number(value);
      if (!(fov > 0 && fov < 180)) refuseFlag('--camera', setting, 'fov must be in (0, 180) degrees');
      camera.fov = fov;
    } else {
      refuseFlag('--camera', setting, 'is not one of target=x,y,z, eye=x,y,z, fov=degrees');
    }
  }
  if (camera.eye && camera.target && camera.eye.every((x, c) => x === camera.target![c])) {
    refuseFlag('--camera', settings.join(' '), 'eye and target must differ');
  }
  return camera;
}

/**
 * The camera for the parts not given: the target at the centre of the
 * scene's particles, emitter centres and ground plane's point nearest the
 * origin (the origin without any), the eye on
 * the gallery's default orbit (yaw 0, pitch 0.3 rad) far enough that a
 * sphere around them of radius >= 3 fills the view's height, fov 45 degrees.
 */
export function fitCamera(scene: Scene, given: Partial<RenderCamera>): RenderCamera {
  const points: number[][] = scene.particles.map((p) => p.position);
  const ground = sceneGrid(scene, 1);
  if (ground) points.push([...ground.centre]);
  for (const emitter of scene.emitters ?? []) {
    const center = (emitter as { shape?: { center?: number[] } } | null)?.shape?.center;
    points.push(Array.isArray(center) ? center : [0, 0, 0]);
  }
  if (points.length === 0) points.push([0, 0, 0]);
  const low = [0, 1, 2].map((c) => Math.min(...points.map((p) => p[c] as number)));
  const high = [0, 1, 2].map((c) => Math.max(...points.map((p) => p[c] as number)));
  const centre = low.map((x, c) => (x + (high[c] as number)) / 2) as [number, number, number];
  const radius = Math.max(3, Math.hypot(...high.map((x, c) => x - (low[c] as number))) / 2);
  const fov = given.fov ?? 45;
  const target = given.target ?? centre;
  const distance = (1.1 * radius) / Math.sin((fov * Math.PI) / 360);
  const pitch = 0.3;
  const eye =
    given.eye ??
    ([target[0], target[1] + distance * Math.sin(pitch), target[2] + distance * Math.cos(pitch)] as [
      number,
      number,
      number,
    ]);
  return { target, eye, fov };
}

/** An OrbitCamera looking from `eye` at `target` (its distance, yaw and pitch from the two points). */
export function orbitCamera({ target, eye, fov }: RenderCamera, aspect: number): OrbitCamera {
  const [dx, dy, dz] = eye.map((x, c) => x - (target[c] as number)) as [number, number, number];
  const distance = Math.hypot(dx, dy, dz);
  const camera = new OrbitCamera();
  camera.minDistance = 0;
  camera.maxDistance = Infinity;
  camera.far = Math.max(camera.far, distance * 4);
  camera.fovY = (fov * Math.PI) / 180;
  camera.set({ target, distance, yaw: Math.atan2(dx, dz), pitch: Math.asin(dy / distance) });
  camera.update(aspect);
  return camera;
}
