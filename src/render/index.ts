/// <reference types="@webgpu/types" preserve="true" />
/**
 * `sparkworks/render`: passes that draw particles, links and a ground grid
 * straight from the particle system's storage buffers (no copy, no readback),
 * and what drives them: an orbit camera and its pointer controls, a canvas
 * target, a fixed-step clock and a GPU timer. Every pass draws into a render
 * pass you begin, on your device, so it composes with your own drawing.
 *
 * @packageDocumentation
 */
export { OrbitCamera, type OrbitCameraState, type Projection } from './camera';
export { OrbitControls, type OrbitControlsOptions } from './orbitControls';
export { CanvasTarget, DEPTH_FORMAT, type CanvasTargetOptions, type PixelRect } from './canvasTarget';
export { FixedStepClock, type FixedStepOptions, type StepPlan } from './fixedStep';
export { GpuTimer, type GpuTiming } from './gpuTimer';
export {
  BLEND_MODES,
  COLOR_MODES,
  DEFAULT_LOOK,
  DRAW_MODES,
  type BlendMode,
  type ColorMode,
  type DrawMode,
  type DrawTime,
  type DrawView,
  type ParticleLook,
  type Rgb,
} from './particleLook';
export { ParticlePass, QUAD_PATHS, type LiveSource, type ParticlePassOptions, type QuadPath } from './particlePass';
export { ParticleBinding, type DrawRange, type DrawSource, type ParticleSource } from './particleBinding';
export { GridPass, GridBinding, type GridSpec } from './gridPass';
export { LinePass, LineBinding, packStrips, type LineStyle } from './linePass';
export {
  LinkPass,
  LinkBinding,
  DEFAULT_LINK_STYLE,
  packLinks,
  sceneLinkEnds,
  ANCHORED_END,
  type AnchoredLinkEnds,
  type LinkEnds,
  type LinkList,
  type LinkStyle,
} from './linkPass';
export { GroupTimeline, GROUP_KINDS, type GroupKind } from './groupTimeline';
export { TrailRecorder } from './trailRecorder';
export { TrailPass, TrailBinding, DEFAULT_TRAIL_LOOK, type TrailBindingOptions, type TrailLook } from './trailPass';
export { SpriteTextures, MAX_SPRITE_IMAGE_SIDE, type SpriteImage, type SpritePixels } from './spriteTextures';
export { DepthSort, type DepthSortOptions } from './depthSort';
