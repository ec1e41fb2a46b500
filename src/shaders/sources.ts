/**
 * The only module that reads `.wgsl` files: each is imported as text (Vite's
 * `?raw`, which Vitest and vite-node understand too) and handed to the
 * compositions in ./index.ts. A shader file is added here and nowhere else.
 */
import age from '../../shaders/lifecycle/age.wgsl?raw';
import benchIntegrateSoA from '../../shaders/bench/integrateSoA.wgsl?raw';
import benchIntegrateUniformAcceleration from '../../shaders/bench/integrateUniformAcceleration.wgsl?raw';
import benchStepMath from '../../shaders/bench/stepMath.wgsl?raw';
import blockInput from '../../shaders/lifecycle/blockInput.wgsl?raw';
import blockScan from '../../shaders/shared/blockScan.wgsl?raw';
import collide from '../../shaders/collisions/collide.wgsl?raw';
import colliderKinds from '../../shaders/collisions/colliderKinds.wgsl?raw';
import compact from '../../shaders/lifecycle/compact.wgsl?raw';
import contactLane from '../../shaders/collisions/contactLane.wgsl?raw';
import contacts from '../../shaders/collisions/contacts.wgsl?raw';
import countDeaths from '../../shaders/lifecycle/countDeaths.wgsl?raw';
import denseDispatch from '../../shaders/step/denseDispatch.wgsl?raw';
import copy from '../../shaders/bench/copy.wgsl?raw';
import dispatch from '../../shaders/shared/dispatch.wgsl?raw';
import emit from '../../shaders/lifecycle/emit.wgsl?raw';
import fill from '../../shaders/lifecycle/fill.wgsl?raw';
import fusedColliders from '../../shaders/collisions/fusedColliders.wgsl?raw';
import forceGenerators from '../../shaders/forces/forceGenerators.wgsl?raw';
import forces from '../../shaders/forces/forces.wgsl?raw';
import grid from '../../shaders/collisions/grid.wgsl?raw';
import gridHash from '../../shaders/collisions/gridHash.wgsl?raw';
import health from '../../shaders/shared/health.wgsl?raw';
import integrate from '../../shaders/step/integrate.wgsl?raw';
import integrateForces from '../../shaders/forces/integrateForces.wgsl?raw';
import lifeDeath from '../../shaders/lifecycle/lifeDeath.wgsl?raw';
import lifePlan from '../../shaders/lifecycle/lifePlan.wgsl?raw';
import lifeScan from '../../shaders/lifecycle/lifeScan.wgsl?raw';
import liveAge from '../../shaders/step/liveAge.wgsl?raw';
import liveDispatch from '../../shaders/lifecycle/liveDispatch.wgsl?raw';
import noColliders from '../../shaders/collisions/noColliders.wgsl?raw';
import noFieldForces from '../../shaders/forces/noFieldForces.wgsl?raw';
import pcg from '../../shaders/shared/pcg.wgsl?raw';
import positionCopy from '../../shaders/collisions/positionCopy.wgsl?raw';
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
import safeLength from '../../shaders/shared/safeLength.wgsl?raw';
import scannedWords from '../../shaders/lifecycle/scannedWords.wgsl?raw';
import scatter from '../../shaders/shared/scatter.wgsl?raw';
import stepEntry from '../../shaders/step/stepEntry.wgsl?raw';
import spawn from '../../shaders/lifecycle/spawn.wgsl?raw';
import springs from '../../shaders/forces/springs.wgsl?raw';
import turbulence from '../../shaders/forces/turbulence.wgsl?raw';
import workgroupScan from '../../shaders/shared/workgroupScan.wgsl?raw';
import worldContact from '../../shaders/collisions/worldContact.wgsl?raw';

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
  countDeaths,
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
