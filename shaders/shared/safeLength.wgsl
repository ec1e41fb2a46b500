// |d| for a spring, a link or a speed, when |d|² overflows float32 (|d| past about 1.8e19): the
// vector scaled by its largest component first, so a long spring's length
// (and its force, when that is finite) stays finite instead of becoming
// infinity / infinity = NaN. `length2` is dot(d, d), already computed; below
// the overflow the plain sqrt is kept, bit for bit. The CPU twin is
// safeLength in src/core/safeLength.ts.
// Both worked out and one selected, not a branch: the software adapter runs a
// branch's code under a lane mask whether a lane takes it or not, and pays for
// the mask on top.
fn safeLength(d: vec3f, length2: f32) -> f32 {
  // Infinity is the float whose exponent bits are all ones and mantissa 0; NaN cannot arise from finite d.
  let overflowed = (bitcast<u32>(length2) & 0x7f800000u) == 0x7f800000u;
  let m = max(max(abs(d.x), abs(d.y)), abs(d.z));
  let u = d / m;
  return select(sqrt(length2), m * sqrt(dot(u, u)), overflowed);
}
