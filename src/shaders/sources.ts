/**
 * The only module that reads `.wgsl` files: each is imported as text (Vite's
 * `?raw`, which Vitest and vite-node understand too) and handed to the
 * compositions in ./index.ts. A shader file is added here and nowhere else.
 */
import age from '../../shaders/age.wgsl?raw';
import benchIntegrateSoA from '../../shaders/bench/integrateSoA.wgsl?raw';
import benchIntegrateUniformAcceleration from '../../shaders/bench/integrateUniformAcceleration.wgsl?raw';
import benchStepMath from '../../shaders/bench/stepMath.wgsl?raw';
import blockInput from '../../shaders/blockInput.wgsl?raw';
import blockScan from '../../shaders/blockScan.wgsl?raw';
import collide from '../../shaders/collide.wgsl?raw';
import colliderKinds from '../../shaders/colliderKinds.wgsl?raw';
import compact from '../../shaders/compact.wgsl?raw';
import contactLane from '../../shaders/contactLane.wgsl?raw';
import contacts from '../../shaders/contacts.wgsl?raw';
import deathWords from '../../shaders/deathWords.wgsl?raw';
import denseDispatch from '../../shaders/denseDispatch.wgsl?raw';
import copy from '../../shaders/copy.wgsl?raw';
import dispatch from '../../shaders/dispatch.wgsl?raw';
import emit from '../../shaders/emit.wgsl?raw';
import fill from '../../shaders/fill.wgsl?raw';
import fusedColliders from '../../shaders/fusedColliders.wgsl?raw';
import forceGenerators from '../../shaders/forceGenerators.wgsl?raw';
import forces from '../../shaders/forces.wgsl?raw';
import grid from '../../shaders/grid.wgsl?raw';
import gridHash from '../../shaders/gridHash.wgsl?raw';
import health from '../../shaders/health.wgsl?raw';
import integrate from '../../shaders/integrate.wgsl?raw';
import integrateForces from '../../shaders/integrateForces.wgsl?raw';
import lifeDeath from '../../shaders/lifeDeath.wgsl?raw';
import lifePlan from '../../shaders/lifePlan.wgsl?raw';
import lifeScan from '../../shaders/lifeScan.wgsl?raw';
import liveAge from '../../shaders/liveAge.wgsl?raw';
import liveDispatch from '../../shaders/liveDispatch.wgsl?raw';
import noColliders from '../../shaders/noColliders.wgsl?raw';
import noFieldForces from '../../shaders/noFieldForces.wgsl?raw';
import pcg from '../../shaders/pcg.wgsl?raw';
import positionCopy from '../../shaders/positionCopy.wgsl?raw';
import renderColor from '../../shaders/render/color.wgsl?raw';
import renderDepthSort from '../../shaders/render/depthSort.wgsl?raw';
import renderGrid from '../../shaders/render/grid.wgsl?raw';
import renderLines from '../../shaders/render/lines.wgsl?raw';
import renderLinks from '../../shaders/render/links.wgsl?raw';
import renderLiveOrder from '../../shaders/render/liveOrder.wgsl?raw';
import renderLiveRecords from '../../shaders/render/liveRecords.wgsl?raw';
import renderLiveSortedSlots from '../../shaders/render/liveSortedSlots.wgsl?raw';
import renderParticles from '../../shaders/render/particles.wgsl?raw';
import renderRecordOrder from '../../shaders/render/recordOrder.wgsl?raw';
import renderRecords from '../../shaders/render/records.wgsl?raw';
import renderSegment from '../../shaders/render/segment.wgsl?raw';
import renderSortedRecords from '../../shaders/render/sortedRecords.wgsl?raw';
import renderTrails from '../../shaders/render/trails.wgsl?raw';
import renderTrailsRecord from '../../shaders/render/trailsRecord.wgsl?raw';
import safeLength from '../../shaders/safeLength.wgsl?raw';
import scannedWords from '../../shaders/scannedWords.wgsl?raw';
import scatter from '../../shaders/scatter.wgsl?raw';
import stepEntry from '../../shaders/stepEntry.wgsl?raw';
import spawn from '../../shaders/spawn.wgsl?raw';
import springs from '../../shaders/springs.wgsl?raw';
import turbulence from '../../shaders/turbulence.wgsl?raw';
import workgroupScan from '../../shaders/workgroupScan.wgsl?raw';
import worldContact from '../../shaders/worldContact.wgsl?raw';

/** Every shader file by name (`render/particles.wgsl` is `renderParticles`). */
export const sources = {
  age,
  benchIntegrateSoA,
  benchIntegrateUniformAcceleration,
  benchStepMath,
  blockInput,
  blockScan,
  collide,
  colliderKinds,
  compact,
  contactLane,
  contacts,
  deathWords,
  copy,
  dispatch,
  emit,
  fill,
  forceGenerators,
  fusedColliders,
  forces,
  grid,
  gridHash,
  health,
  integrate,
  integrateForces,
  lifeDeath,
  lifePlan,
  lifeScan,
  denseDispatch,
  liveAge,
  stepEntry,
  liveDispatch,
  noColliders,
  noFieldForces,
  pcg,
  positionCopy,
  renderColor,
  renderDepthSort,
  renderGrid,
  renderLines,
  renderLinks,
  renderLiveOrder,
  renderLiveRecords,
  renderLiveSortedSlots,
  renderParticles,
  renderRecordOrder,
  renderRecords,
  renderSegment,
  renderSortedRecords,
  renderTrails,
  renderTrailsRecord,
  safeLength,
  scannedWords,
  scatter,
  spawn,
  springs,
  turbulence,
  workgroupScan,
  worldContact,
} as const;
