/**
 * The names left from the contact resolver's choice of order, kept for the
 * deprecation of `GpuParticleSystemOptions.contactOrder`: the resolver has
 * one order, by particle, and nothing reads these.
 */

/**
 * The values `GpuParticleSystemOptions.contactOrder` took.
 *
 * @deprecated The contact resolver has one order; `contactOrder` has no
 * effect and is ignored.
 */
export type ContactOrder = 'particles' | 'entries';

/**
 * The share of live slots below which the `'auto'` contact order took
 * `'entries'`.
 *
 * @deprecated The contact resolver has one order: nothing reads this.
 */
export const ENTRIES_BELOW = 0.75;
