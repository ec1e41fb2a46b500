// |d| for a spring, a link or a speed, when |d|² overflows float32 (|d| past about 1.8e19): the
// vector scaled by its largest component first, so a long spring's length
// (and its force, when that is finite) stays finite instead of becoming
// infinity / infinity = NaN. `length2` is dot(d, d), already computed; below
// the overflow the plain sqrt is kept, bit for bit. The CPU twin is
// safeLength in src/core/safeLength.ts.
fn safeLength(d: vec3f, length2: f32) -> f32 {
  // Infinity is the float whose exponent bits are all ones and mantissa 0; NaN cannot arise from finite d.
  if ((bitcast<u32>(length2) & 0x7f800000u) != 0x7f800000u) { return sqrt(length2); }
  let m = max(max(abs(d.x), abs(d.y)), abs(d.z));
  let u = d / m;
  return m * sqrt(dot(u, u));
}
