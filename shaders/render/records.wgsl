// The particles a ParticlePass draws by index: every record of a buffer of
// Particle records (the simulation's state), or every sampleStride-th sample
// of a history of it; life colours from a GroupTimeline (src/render/groupTimeline.ts).
// Composed after shaders/render/particles.wgsl, whose bindings and Look it uses,
// and before the draw's order: shaders/render/recordOrder.wgsl (by index) or
// shaders/render/sortedRecords.wgsl (through a depth sort), which define lookOf.

// Per group (GroupLife, generated from src/render/groupTimeline.ts): birth time, lifetime, hue, kind.
@group(0) @binding(2) var<storage, read> groups: array<GroupLife>;

// The record behind the n-th particle drawn: every sampleStride-th sample of
// `count` particles (a history buffer holds samples of `count` records one after another).
fn recordOf(drawn: u32) -> u32 {
  let count = max(params.count, 1u);
  return (drawn / count) * params.sampleStride * count + drawn % count;
}

// The Look of the n-th record of the draw's source.
fn recordLook(drawn: u32) -> Look {
  let record = recordOf(drawn);
  let member = record % max(params.count, 1u);
  var out = particleLook(particleAt(record), member);
  if (COLOR_MODE == 2u) {
    let groupSize = max(params.groupSize, 1u);
    let group = groups[member / groupSize];
    let age = (params.time - group.birth) / max(group.lifetime, 1e-6);
    // For the look's curves over life (particles.wgsl): the group's age.
    out.share = clamp(age, 0.0, 1.0);
    out.age = params.time - group.birth;
    let kind = u32(group.kind);
    // A rocket's particles all share one state until it bursts: draw the first only.
    let drawn = kind == 2u || (kind == 1u && member % groupSize == 0u);
    out.visible = out.visible && drawn && age >= 0.0 && age <= 1.0;
    if (kind == 1u) {
      out.color = vec3f(1.0, 0.72, 0.42);
      out.size = params.size * 1.5;
    } else {
      let hot = select(1.0, smoothstep(0.0, params.hotTime, age), params.hotTime > 0.0);
      out.color = hsv(group.hue, params.saturation * hot, 1.0);
      out.alpha = 1.0 - smoothstep(params.fadeStart, 1.0, age);
      out.size = params.size * mix(1.0, params.endSize, age);
    }
  }
  return out;
}
