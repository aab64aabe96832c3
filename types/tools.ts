// `lmskit/types/tools`: the argument (`…Input`) and result (`…Output`) types of the MCP tools,
// generated from mcp-schema/ by json-schema-to-typescript.
export type * from '../generated/tools/index.ts';
