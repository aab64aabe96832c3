// The request journal (admin API, "Journal"): what each client sent and what the mock answered, for
// a person asking "what did my client send?" — URL with query, headers with credentials masked, bodies
// (cut at BODY_LIMIT) with the fields the contracts mark as secret masked (secrets.ts), the matched
// operation, the caller, and whether both sides kept the contract. It holds the last `size` requests,
// outside the platform state: in a ring in memory, describing this run only, or, with a shared store,
// in PostgreSQL for every replica of the sandbox (mock/store/postgres-journal.ts).
//
// What its importers use; the parts live in ./journal/, one concern each:
//   request-journal.ts  the RequestJournal: the parts put together, the admin API's reads
//   capture.ts          recording: the response hooks, the request's body, uploads, what is not recorded
//   caller.ts           who made a request
//   store.ts            where requests are kept (JournalStore), the ring, ids, clearing, the filters
//   view.ts             a request as shown: headers masked, bodies parsed and cut, the listed entry
//   verdict.ts          request and answer judged against the contract
//   contracts.ts        the contracts as the journal reads them: operations, validators, secrets
//   har.ts              the HAR export
//   entry.ts            what is kept of a request, the wire shapes, the bounds
export { callerOfCredentials } from './journal/caller.ts';
export {
  CONSOLE_HEADER,
  journalApiOf,
  noteUpload,
  pathAndQuery,
  type UploadSummary,
} from './journal/capture.ts';
export {
  BODY_LIMIT,
  DEFAULT_JOURNAL_SIZE,
  type JournalApi,
  type JournalCaller,
  type JournalEntry,
  type JournalMessage,
  type JournalVerdict,
  MAX_JOURNAL_SIZE,
} from './journal/entry.ts';
export { type JournalOptions, RequestJournal } from './journal/request-journal.ts';
export { type JournalFilter, type JournalStore, thenOf } from './journal/store.ts';
