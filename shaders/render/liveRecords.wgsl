// The particles a ParticlePass draws from the live list of a system with
// emitters (src/gpu/lifecycle/lifeBuffers.ts): the draw is indirect, its vertex or
// instance count written on the GPU by planEmit from the live count
// (shaders/lifecycle/lifePlan.wgsl: points, pulled quads and instanced quads each have
// their own arguments), and the drawn-th particle is the drawn-th live slot,
// so free (parked) slots are never drawn and nothing is read back. Life colours come from the
// particle's life record: white-hot at birth, its rule's colour (a firework
// type's, an emitter's), fading and shrinking towards the end of its life.
// Composed after shaders/render/particles.wgsl, whose bindings and Look it
// uses, and before the draw's order (liveSlotOf): shaders/render/liveOrder.wgsl,
// or shaders/render/liveSortedSlots.wgsl through a depth sort; prepended: the Life and LifeCounters structs, generated from
// src/core/layout.ts and src/core/emitters/gpuRecords.ts. params.count is the
// system's capacity: the length of each half of the live lists.

@group(0) @binding(2) var<storage, read> life: array<Life>;
// Two halves of `capacity` slots; the counters' parity says which holds the live list.
@group(0) @binding(3) var<storage, read> liveLists: array<u32>;
@group(0) @binding(4) var<storage, read> liveCounters: LifeCounters;

fn lookOf(drawn: u32) -> Look {
  var out: Look;
  // Past the live count (no draw is sized so; kept as the kernels keep their guards).
  if (drawn >= liveCounters.live) {
    out.visible = false;
    return out;
  }
  let slot = liveSlotOf(drawn);
  out = particleLook(particleAt(slot), slot);
  // For the look's curves over life, flipbook and turning (particles.wgsl); read only where used.
  if (CURVES || TEXTURED) {
    let lifeRecord = life[slot];
    out.age = lifeRecord.age + params.extrapolate;
    out.share = select(0.0, clamp(out.age / lifeRecord.lifetime, 0.0, 1.0), lifeRecord.lifetime > 0.0);
    out.rule = lifeRecord.rule;
    out.scale = lifeRecord.size;
    out.seed.y = lifeRecord.generation;
  }
  if (COLOR_MODE == 2u) {
    let record = life[slot];
    // The share of its life lived at the drawn time (0 for a particle that never dies).
    let share = (record.age + params.extrapolate) / record.lifetime;
    let lived = select(0.0, clamp(share, 0.0, 1.0), record.lifetime > 0.0);
    let rgb = unpack4x8unorm(record.color).rgb;
    let hot = select(1.0, smoothstep(0.0, params.hotTime, lived), params.hotTime > 0.0);
    out.color = mix(vec3f(1.0), rgb, params.saturation * hot);
    out.alpha = 1.0 - smoothstep(params.fadeStart, 1.0, lived);
    out.size = params.size * record.size * mix(1.0, params.endSize, lived);
  }
  return out;
}
