// Departures of the ai checks (conformance/checks/ai.ts).
import type { Departure } from './kit.ts';

export const AI_DEPARTURES: Departure[] = [];
