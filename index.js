// The package's entry for Node: `import { startMock, startMcpServer, runConformance } from 'lmskit'` (package/index.ts;
// the types come from dist/, built by `npm run build:types` when the package is packed). The kit is
// TypeScript run by tsx, as bin/lmskit.js runs it; `tsImport` loads it with a loader scoped to the
// kit's own modules, so the importing program's own module loading is left as it was.
import { tsImport } from 'tsx/esm/api';

const api = await tsImport('./package/index.ts', import.meta.url);

export const { startMock, startMcpServer, runConformance } = api;
