// `npm run generate`: rewrites generated/ from openapi/ and mcp-schema/.
import { relative } from 'node:path';
import { generate } from '../lib/generate.ts';
import { GENERATED_DIR } from '../lib/paths.ts';

const files = await generate();
console.log(`generated ${files.length} files into ${relative(process.cwd(), GENERATED_DIR) || '.'}/`);
