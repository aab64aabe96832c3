// The admin API's "Journal" operations (openapi/admin, paths/journal*.yaml) over the request journal.
import type { PathOperations } from '../../../generated/admin.ts';
import { errorAnswer } from '../error-body.ts';
import type { JournalFilter, RequestJournal } from '../journal.ts';
import { type Handlers, ok } from '../typed-handlers.ts';

type JournalOperation = 'getRequestJournal' | 'getJournalEntry' | 'exportJournalHar';

/** The filters of a validated query (the contract states their types and bounds). */
type JournalQuery = {
  [K in 'api' | 'method' | 'minStatus' | 'maxStatus' | 'path' | 'operationId' | 'caller']?: unknown;
};

const filterOf = (query: JournalQuery): JournalFilter => ({
  api: query.api as JournalFilter['api'],
  method: query.method as string | undefined,
  minStatus: query.minStatus as number | undefined,
  maxStatus: query.maxStatus as number | undefined,
  path: query.path as string | undefined,
  operationId: query.operationId as string | undefined,
  caller: query.caller as string | undefined,
});

export function journalHandlers(journal: RequestJournal): Pick<Handlers<PathOperations>, JournalOperation> {
  return {
    getRequestJournal: (_req, _res, { query }) =>
      ok({
        requests: journal.list(filterOf(query), Number(query.limit)),
        size: journal.size,
        held: journal.held,
      }),
    getJournalEntry: (_req, _res, { params }) => {
      const detail = journal.detail(String(params.requestId));
      if (!detail)
        return errorAnswer({
          status: 404,
          code: 'NOT_FOUND',
          message: `Request ${params.requestId} is not in the journal (it holds the last ${journal.size}).`,
        });
      return ok(detail);
    },
    exportJournalHar: (req, _res, { query }) => {
      const origin = `${req.protocol}://${req.get('host') ?? 'localhost'}`;
      return {
        ...ok(journal.har(filterOf(query), Number(query.limit), origin)),
        headers: { 'content-disposition': 'attachment; filename="lmskit-journal.har"' },
      };
    },
  };
}
