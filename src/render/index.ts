/** The renderer: passes that draw particles straight from their storage buffers, and what drives them. */
export { OrbitCamera, type OrbitCameraState, type Projection } from './camera';
export { OrbitControls, type OrbitControlsOptions } from './orbitControls';
export { CanvasTarget, DEPTH_FORMAT, type CanvasTargetOptions, type PixelRect } from './canvasTarget';
export { FixedStepClock, type FixedStepOptions, type StepPlan } from './fixedStep';
export { GpuTimer, type GpuTiming } from './gpuTimer';
export * from './particleLook';
export { ParticlePass, ParticleBinding, type DrawRange, type LiveSource } from './particlePass';
export { GridPass, GridBinding, GRID_PARAMS, type GridSpec } from './gridPass';
export { LinePass, LineBinding, LINE_PARAMS, packStrips, type LineStyle } from './linePass';
export {
  LinkPass,
  LinkBinding,
  LINK_PARAMS,
  LINK_RECORD,
  DEFAULT_LINK_STYLE,
  WORDS_PER_LINK,
  packLinks,
  type LinkEnds,
  type LinkList,
  type LinkStyle,
} from './linkPass';
export { GroupTimeline, GROUP_KINDS, type GroupKind } from './groupTimeline';
export { TrailRecorder } from './trailRecorder';
// The render passes' uniform blocks (DRAW_PARAMS, GRID_PARAMS, LINE_PARAMS, LINK_PARAMS) and link record are schema structs.
export { defineStruct, StructDef, StructValue, type FieldSpecs } from '../core/schema';
