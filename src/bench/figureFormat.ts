/**
 * How the report writes a fraction and a rate, so the table and the
 * targets' figures print them alike.
 */

/** 0.853 as `85.3%`. */
export const percent = (x: number) => `${(x * 100).toFixed(1)}%`;

/** Particle-steps a second as `12.34 M/s`. */
export const millions = (x: number) => `${(x / 1e6).toFixed(2)} M/s`;
