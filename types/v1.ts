// `lmskit/types/v1`: the types of the Integration REST API (/openapi/v1), generated from its contract by openapi-typescript.
export type * from '../generated/v1.ts';
