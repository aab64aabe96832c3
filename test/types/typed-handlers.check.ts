// Type-level checks of the handler maps (mock/http/typed-handlers.ts, docs/adr-0004-typed-handlers-and-error-catalogue.md).
// Not run by vitest: `npm run lint` runs tsc over this file (test/contracts/lint.test.ts). Each
// `@ts-expect-error` fails the lint when the line under it compiles, so each line below proves that the
// contract's types refuse one kind of drift at compile time.
import type { PathOperations } from '../../generated/v2.ts';
import { type Handlers, ok, type TypedHandler } from '../../mock/http/typed-handlers.ts';

type Unban = PathOperations['unbanUser'];

/** The documented answer compiles (openapi/v2 `UnbanUserResult`). */
export const right: TypedHandler<Unban> = (_req, _res, { params }) =>
  ok({ userId: params.userId, status: 'active' });

/** A status outside the schema's enum does not. */
const gone = { userId: 1, status: 'gone' as const };
// @ts-expect-error 'gone' is not a user status of the contract
export const wrongValue: TypedHandler<Unban> = () => ok(gone);

/** A body without a required field does not. */
const noStatus = { userId: 1 };
// @ts-expect-error `status` is required in UnbanUserResult
export const missingField: TypedHandler<Unban> = () => ok(noStatus);

/** A status the operation does not document does not. */
const created = { status: 201 as const, body: { userId: 1, status: 'active' as const } };
// @ts-expect-error unbanUser documents no 201
export const undocumentedStatus: TypedHandler<Unban> = () => created;

/** An error answer must carry the documented error body. */
const notFound = { status: 404 as const, body: { message: 'no such user' } };
// @ts-expect-error the 404 body is `{error, code}`, not `{message}`
export const wrongErrorBody: TypedHandler<Unban> = () => notFound;

/** Path parameters arrive typed: the user id is a number, not a string. */
export const paramTypes: TypedHandler<Unban> = (_req, _res, { params }) => {
  // @ts-expect-error `userId` is an integer in the contract
  const id: string = params.userId;
  return ok({ userId: Number(id), status: 'active' });
};

/** A map that lacks one operation's handler does not compile. */
// @ts-expect-error `getUser` has no handler
export const missingHandler: Handlers<Pick<PathOperations, 'unbanUser' | 'getUser'>> = { unbanUser: right };
