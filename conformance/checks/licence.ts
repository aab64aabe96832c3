// Licence states, revoked keys and banned owners (seed 000, Tenant restrictions; Authentication 4-6; Errors).
import type { Check } from '../types.ts';

export const licenceChecks: Check[] = [];
