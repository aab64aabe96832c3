// The mutation matrix's legitimate variations (./mutation-matrix.ts says how, and how it is fast):
// each a choice the seeds leave open, made otherwise than the kit made it, fails no MUST, and the
// SHOULD named for it reports the kit's choice. The departures are in mutations.test.ts.
import { variationsPart } from './mutation-matrix.ts';

variationsPart(1, 1);
