// The turbulence generator's field: a sum of Fourier modes (plane waves whose
// amplitudes are perpendicular to their wave vectors), so divergence-free.
// The modes, and why the field is built this way, are in
// src/core/forces/turbulence.ts, which generates `turbulenceField` (one line
// a mode, the table as constants) after this file and holds the CPU twin.

// A periodic parabola, period 1, |wave| <= 1, C1: x = 2 fract(t) - 1 runs
// over [-1, 1) and x (4 - 4|x|) is 0 at both ends. Only + - * and floor, so
// the CPU twin agrees to float32 rounding (WGSL's cos is specified to 2^-11).
fn wave(t: f32) -> f32 {
  let x = 2.0 * fract(t) - 1.0;
  return x * (4.0 - 4.0 * abs(x));
}
