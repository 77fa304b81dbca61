// `npm run docs:scaling`: rewrites docs/scaling.md's extrapolation table from the fleet table in the
// same document (where `npm run bench:fleet`'s figures are kept); `npm test` fails while it is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOCAL_PROJECT_ROOT } from '../../local/projectRoot';
import { SCALING_DOC, withScalingTable } from './scalingTable';

const scaling = join(LOCAL_PROJECT_ROOT, SCALING_DOC);
writeFileSync(scaling, withScalingTable(readFileSync(scaling, 'utf8')));
console.log(`Wrote the extrapolation table of ${SCALING_DOC} from its fleet table`);
