// Departures of the permissions checks (conformance/checks/permissions.ts).
import type { Departure } from './kit.ts';

export const PERMISSION_DEPARTURES: Departure[] = [];
