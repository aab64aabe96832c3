// `lmskit/types/v2`: the types of the MCP backend API (/api/v2), generated from its contract by openapi-typescript.
export type * from '../generated/v2.ts';
