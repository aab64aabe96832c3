// Departures of the licence checks (conformance/checks/licence.ts).
import type { Departure } from './kit.ts';

export const LICENCE_DEPARTURES: Departure[] = [];
