// AI generation options, generation from files, regeneration and every upload type (seed 000, AI tools).
import type { Check } from '../types.ts';

export const aiChecks: Check[] = [];
