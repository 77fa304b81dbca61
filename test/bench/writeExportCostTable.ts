// `npm run docs:costs`: rewrites docs/deploying.md's cost table from docs/performance.md's polling
// table (where `npm run bench:polling`'s figures are kept); `npm test` fails while it is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOCAL_PROJECT_ROOT } from '../../local/projectRoot';
import { DEPLOYING_DOC, PERFORMANCE_DOC, withCostTable } from './exportCostTable';

const deploying = join(LOCAL_PROJECT_ROOT, DEPLOYING_DOC);
const performance = readFileSync(join(LOCAL_PROJECT_ROOT, PERFORMANCE_DOC), 'utf8');
writeFileSync(deploying, withCostTable(readFileSync(deploying, 'utf8'), performance));
console.log(`Wrote the cost table of ${DEPLOYING_DOC} from ${PERFORMANCE_DOC}`);
