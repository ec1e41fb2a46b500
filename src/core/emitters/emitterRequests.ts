/**
 * The emitters' side of a step's emission (shaders/lifecycle/lifePlan.wgsl planEmit,
 * shaders/lifecycle/emit.wgsl), for the CPU reference: how many particles each emitter
 * asks for, from its rate's carried fraction and its new bursts, and which
 * emitter a host request belongs to.
 */
import { EMITTER_FRAME, type EMITTER_STATE, type FRAME_PARAMS } from './gpuRecords';
import type { StructArray } from '../schema';

type EmitterStates = StructArray<typeof EMITTER_STATE.fields>;

/**
 * planEmit's emitter loop: each emitter's requests this step (capped at what
 * the capacity leaves), where they start among the host requests and their
 * first number in its random stream; returns their sum and what the cap cut.
 */
export function planEmitterRequests(
  frame: StructArray<typeof FRAME_PARAMS.fields>,
  states: EmitterStates,
  capacity: number,
): { hostRequests: number; shortfall: number } {
  let hostRequests = 0;
  let shortfall = 0;
  const count = frame.get(0, 'emitterCount');
  const emitters = frame.member(0, 'emitters', EMITTER_FRAME);
  for (let e = 0; e < count; e++) {
    const incrementWhole = emitters.get(e, 'incrementWhole');
    const incrementFraction = emitters.get(e, 'incrementFraction');
    const burstTotal = emitters.get(e, 'burstTotal');
    const carry = states.get(e, 'carry');
    const carried = (carry + incrementFraction) >>> 0;
    let requested = (incrementWhole + (carried < carry ? 1 : 0)) >>> 0;
    states.set(e, 'carry', carried);
    requested = (requested + ((burstTotal - states.get(e, 'burstServed')) >>> 0)) >>> 0;
    states.set(e, 'burstServed', burstTotal);
    const requests = Math.min(requested, capacity - hostRequests);
    shortfall += requested - requests;
    states.set(e, 'requests', requests);
    states.set(e, 'start', hostRequests);
    states.set(e, 'sequenceBase', states.get(e, 'sequence'));
    states.set(e, 'sequence', (states.get(e, 'sequence') + requested) >>> 0);
    hostRequests += requests;
  }
  return { hostRequests, shortfall };
}

/** emit.wgsl: the emitter whose share of the host requests holds request `h`. */
export function requestEmitter(states: EmitterStates, emitterCount: number, h: number): number {
  let e = 0;
  for (; e + 1 < emitterCount; e++) {
    if (h < states.get(e, 'start') + states.get(e, 'requests')) break;
  }
  return e;
}
