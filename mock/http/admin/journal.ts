// The admin API's "Journal" operations (openapi/admin, paths/journal*.yaml) over the request journal:
// answered at once from the ring in memory, once read from a shared store (a promise).
import type { PathOperations } from '../../../generated/admin.ts';
import { errorAnswer } from '../error-body.ts';
import { type JournalFilter, type RequestJournal, thenOf } from '../journal.ts';
import { type Handlers, ok } from '../typed-handlers.ts';

type JournalOperation = 'getRequestJournal' | 'clearRequestJournal' | 'getJournalEntry' | 'exportJournalHar';

/** The filters of a validated query (the contract states their types and bounds). */
type JournalQuery = {
  [K in
    | 'api'
    | 'method'
    | 'status'
    | 'minStatus'
    | 'maxStatus'
    | 'path'
    | 'operationId'
    | 'caller'
    | 'tool'
    | 'body']?: unknown;
};

/** The filter of a query, or the 400 that names what is wrong with it (only `body` can be: its JSON). */
function filterOf(query: JournalQuery): { filter: JournalFilter } | { refusal: ReturnType<typeof badBody> } {
  let body: unknown;
  if (query.body !== undefined) {
    try {
      body = JSON.parse(String(query.body));
    } catch (error) {
      return { refusal: badBody((error as Error).message) };
    }
  }
  return {
    filter: {
      api: query.api as JournalFilter['api'],
      method: query.method as string | undefined,
      status: query.status as number | undefined,
      minStatus: query.minStatus as number | undefined,
      maxStatus: query.maxStatus as number | undefined,
      path: query.path as string | undefined,
      operationId: query.operationId as string | undefined,
      caller: query.caller as string | undefined,
      tool: query.tool as string | undefined,
      ...(query.body !== undefined ? { body } : {}),
    },
  };
}

const badBody = (reason: string) =>
  errorAnswer({
    status: 400,
    code: 'VALIDATION_ERROR',
    message: `Invalid request: query.body: must be JSON text (a value the request bodies must match), such as {"email":"ines@example.com"}: ${reason}`,
  });

export function journalHandlers(journal: RequestJournal): Pick<Handlers<PathOperations>, JournalOperation> {
  return {
    getRequestJournal: (_req, _res, { query }) => {
      const read = filterOf(query);
      if ('refusal' in read) return read.refusal;
      return thenOf(journal.read(read.filter, Number(query.limit), query.full === true), (page) =>
        ok({ requests: page.requests, size: journal.size, held: page.held }),
      );
    },
    clearRequestJournal: (_req, _res) =>
      thenOf(journal.clear(), (cleared) => ok({ cleared, size: journal.size })),
    getJournalEntry: (_req, _res, { params }) =>
      thenOf(journal.detail(String(params.requestId)), (detail) =>
        detail
          ? ok(detail)
          : errorAnswer({
              status: 404,
              code: 'NOT_FOUND',
              message: `Request ${params.requestId} is not in the journal (it holds the last ${journal.size}).`,
            }),
      ),
    exportJournalHar: (req, _res, { query }) => {
      const read = filterOf(query);
      if ('refusal' in read) return read.refusal;
      const origin = `${req.protocol}://${req.get('host') ?? 'localhost'}`;
      return thenOf(journal.har(read.filter, Number(query.limit), origin), (har) => ({
        ...ok(har),
        headers: { 'content-disposition': 'attachment; filename="lmskit-journal.har"' },
      }));
    },
  };
}
