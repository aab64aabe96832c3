// `lmskit/types/admin`: the types of the mock's admin API (/__admin), generated from its contract by openapi-typescript.
export type * from '../generated/admin.ts';
