// The admin API's "Journal" operations (openapi/admin, paths/journal*.yaml) over the request journal.
import type { Request, Response } from 'express';
import type { ValidatedRequest } from '../contract.ts';
import { sendError } from '../error-body.ts';
import type { JournalFilter, RequestJournal } from '../journal.ts';

type Handler = (req: Request, res: Response, input: ValidatedRequest) => unknown;

/** The filters of a validated query (the contract states their types and bounds). */
const filterOf = (query: Record<string, unknown>): JournalFilter => ({
  api: query.api as JournalFilter['api'],
  method: query.method as string | undefined,
  minStatus: query.minStatus as number | undefined,
  maxStatus: query.maxStatus as number | undefined,
  path: query.path as string | undefined,
  operationId: query.operationId as string | undefined,
  caller: query.caller as string | undefined,
});

export function journalHandlers(journal: RequestJournal): Record<string, Handler> {
  return {
    getRequestJournal: (_req, res, { query }) =>
      res.json({
        requests: journal.list(filterOf(query), Number(query.limit)),
        size: journal.size,
        held: journal.held,
      }),
    getJournalEntry: (_req, res, { params }) => {
      const detail = journal.detail(String(params.requestId));
      if (!detail)
        return sendError(res, {
          status: 404,
          code: 'NOT_FOUND',
          message: `Request ${params.requestId} is not in the journal (it holds the last ${journal.size}).`,
        });
      res.json(detail);
    },
    exportJournalHar: (req, res, { query }) => {
      const origin = `${req.protocol}://${req.get('host') ?? 'localhost'}`;
      res
        .set('content-disposition', 'attachment; filename="lmskit-journal.har"')
        .json(journal.har(filterOf(query), Number(query.limit), origin));
    },
  };
}
