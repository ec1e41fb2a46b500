// Trails, the record pass (src/render/trailPass.ts): after the step, each
// slot's position is written into its ring of `length` samples, so a trail
// draw can ribbon through the last positions without a readback.
// Prepended: the Particle and Life structs (src/core/layout.ts), TrailHead and
// TrailRecordParams (src/core/look/trails.ts) and shaders/shared/dispatch.wgsl.
// The CPU reference is CpuTrailRings.record (src/core/look/trails.ts).

// With emitters: read the life record, so a free slot keeps no trail, a
// recycled one starts over (its generation differs from the ring's), and
// only the spawn rules the binding trails are recorded.
override HAS_LIFE: bool = false;

@group(0) @binding(0) var<uniform> params: TrailRecordParams;
@group(0) @binding(2) var<storage, read> life: array<Life>;
@group(0) @binding(3) var<storage, read_write> heads: array<TrailHead>;
// `length` samples a slot, xyz the position, w 1.
@group(0) @binding(4) var<storage, read_write> samples: array<vec4f>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(invocation: Invocation) {
  let slot = particleIndex(invocation);
  if (slot >= params.count) { return; }
  var head = heads[slot];
  if (HAS_LIFE) {
    let record = life[slot];
    // A free slot keeps no trail, nor does one of a spawn rule this binding
    // does not trail (a rule's own trails: bit `rule` of rulesLow | rulesHigh << 32).
    let rules = select(params.rulesLow, params.rulesHigh, record.rule >= 32u);
    let trailed = record.rule < 64u && ((rules >> (record.rule & 31u)) & 1u) == 1u;
    if (record.alive == 0u || !trailed) {
      heads[slot].count = 0u;
      return;
    }
    if (record.generation != head.generation) {
      head.next = 0u;
      head.count = 0u;
      head.generation = record.generation;
    }
  }
  samples[slot * params.length + head.next] = vec4f(getPosition(particleAt(slot)), 1.0);
  head.next = (head.next + 1u) % params.length;
  head.count = min(head.count + 1u, params.length);
  heads[slot] = head;
}
