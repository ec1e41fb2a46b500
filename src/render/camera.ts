/**
 * An orbit camera: a target, a distance, and two angles, turned into view and
 * projection matrices with gl-matrix (WebGPU's clip space: depth 0..1, hence
 * the `ZO` projections). gl-matrix style: the matrices are allocated once and
 * refilled by `update`, nothing allocates per frame.
 */
import { mat4, vec3 } from 'gl-matrix';
import type { DrawView } from './particleLook';

/** How the camera projects: with perspective, or orthographically (the visible height at the target kept). */
export type Projection = 'perspective' | 'orthographic';

/** Where an orbit camera is: what it looks at, from how far, from which angles (e.g. a demo's URL state). */
export interface OrbitCameraState {
  /** The point it orbits and looks at. */
  target: [number, number, number];
  /** Distance from the target, world units. */
  distance: number;
  /** Radians around +y; 0 looks from +z toward the target. */
  yaw: number;
  /** Radians above the horizon. */
  pitch: number;
}

const MAX_PITCH = Math.PI / 2 - 0.01;
const UP = vec3.fromValues(0, 1, 0);

/**
 * A camera orbiting a target: set its state, call `update(aspect)` each frame,
 * and pass `viewProjection` to the passes' draw calls.
 */
export class OrbitCamera {
  /** The point it orbits and looks at. */
  readonly target = vec3.create();
  /** Distance from the target, clamped to [minDistance, maxDistance]. */
  distance = 10;
  /** Radians around +y; 0 looks from +z toward the target. */
  yaw = 0;
  /** Radians above the horizon, clamped just short of ±pi/2. */
  pitch = 0.3;
  /** Vertical field of view (perspective), radians. */
  fovY = Math.PI / 4;
  /** Near clipping distance (perspective). */
  near = 0.05;
  /** Far clipping distance (perspective); the depth range around the target (orthographic). */
  far = 2000;
  /** Perspective (default) or orthographic. */
  projection: Projection = 'perspective';
  /** Closest zoom. */
  minDistance = 0.1;
  /** Farthest zoom. */
  maxDistance = 5000;
  /**
   * Lens shift in clip space (NDC units): the target is drawn at (shiftX,
   * shiftY) instead of the centre, e.g. to centre the scene in the part of the
   * canvas a side panel and a header leave free. The view direction does not change.
   */
  shiftX = 0;
  /** Vertical lens shift in clip space (see shiftX). */
  shiftY = 0;

  /** The camera's position, as of the last `update`. */
  readonly eye = vec3.create();
  /** World to view, as of the last `update`. */
  readonly view = mat4.create();
  /** View to clip (WebGPU's depth 0..1), as of the last `update`. */
  readonly projectionMatrix = mat4.create();
  /** World to clip: what the passes draw with, as of the last `update`. */
  readonly viewProjection = mat4.create();

  constructor(state?: Partial<OrbitCameraState>) {
    if (state) this.set(state);
  }

  /** Sets any of target, distance, yaw and pitch (clamped); returns this. */
  set(state: Partial<OrbitCameraState>): this {
    if (state.target) vec3.set(this.target, ...state.target);
    if (state.distance !== undefined) this.distance = state.distance;
    if (state.yaw !== undefined) this.yaw = state.yaw;
    if (state.pitch !== undefined) this.pitch = state.pitch;
    this.clamp();
    return this;
  }

  /** Rotates by an angle in radians (yaw right, pitch up). */
  orbit(deltaYaw: number, deltaPitch: number): void {
    this.yaw += deltaYaw;
    this.pitch += deltaPitch;
    this.clamp();
  }

  /** Moves toward the target: factor < 1 zooms in. */
  zoom(factor: number): void {
    this.distance *= factor;
    this.clamp();
  }

  /**
   * Slides the target in the view plane by a drag of (dx, dy) pixels on a
   * viewport `heightPx` tall, so the point under the pointer follows it.
   */
  pan(dx: number, dy: number, heightPx: number): void {
    const worldPerPixel = (2 * this.halfHeightAtTarget()) / Math.max(heightPx, 1);
    // The view matrix's first two rows are the camera's right and up axes in world space.
    const v = this.view;
    for (let c = 0; c < 3; c++) {
      const right = v[c * 4] as number;
      const up = v[c * 4 + 1] as number;
      this.target[c] = (this.target[c] as number) - right * dx * worldPerPixel + up * dy * worldPerPixel;
    }
  }

  /** Half the visible height at the target's distance (also the orthographic half-height). */
  halfHeightAtTarget(): number {
    return this.distance * Math.tan(this.fovY / 2);
  }

  /** Recomputes eye, view, projection and viewProjection for a viewport of aspect width/height. */
  update(aspect: number): void {
    const cosPitch = Math.cos(this.pitch);
    vec3.set(
      this.eye,
      this.target[0] + this.distance * cosPitch * Math.sin(this.yaw),
      this.target[1] + this.distance * Math.sin(this.pitch),
      this.target[2] + this.distance * cosPitch * Math.cos(this.yaw),
    );
    mat4.lookAt(this.view, this.eye, this.target, UP);
    const safeAspect = aspect > 0 && Number.isFinite(aspect) ? aspect : 1;
    if (this.projection === 'perspective') {
      mat4.perspectiveZO(this.projectionMatrix, this.fovY, safeAspect, this.near, this.far);
    } else {
      const h = this.halfHeightAtTarget();
      const w = h * safeAspect;
      // Depth range centred on the target so zooming never clips the scene.
      mat4.orthoZO(this.projectionMatrix, -w, w, -h, h, this.distance - this.far / 2, this.distance + this.far / 2);
    }
    if (this.shiftX !== 0 || this.shiftY !== 0) {
      // clip.xy += shift * clip.w: add the shift times the w row to the x and y rows (column-major).
      const p = this.projectionMatrix;
      for (let c = 0; c < 4; c++) {
        const w = p[c * 4 + 3] as number;
        p[c * 4] = (p[c * 4] as number) + this.shiftX * w;
        p[c * 4 + 1] = (p[c * 4 + 1] as number) + this.shiftY * w;
      }
    }
    mat4.multiply(this.viewProjection, this.projectionMatrix, this.view);
  }

  /**
   * Pixels per world unit at unit clip w: projection[1][1] * height / 2. A
   * sprite of world radius r at clip w is r * focalPixels / w pixels wide
   * (orthographic: w = 1).
   */
  focalPixels(heightPx: number): number {
    return ((this.projectionMatrix[5] as number) * heightPx) / 2;
  }

  /** What a pass draws through this camera into a `width` x `height` target (device pixels). */
  drawView(width: number, height: number): DrawView {
    return { viewProjection: this.viewProjection, width, height, focalPixels: this.focalPixels(height) };
  }

  private clamp(): void {
    this.pitch = Math.min(MAX_PITCH, Math.max(-MAX_PITCH, this.pitch));
    this.distance = Math.min(this.maxDistance, Math.max(this.minDistance, this.distance));
  }
}
